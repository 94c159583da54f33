import type { RecordedEvent } from '../../contracts/events/envelope';
import { categoryOf } from '../../commands/event-store/event-store';
import { subjectOf, tenantSubject, userSubject } from '../../commands/personal-data';
import { erasePersonalFields } from '../framework/erase-personal-fields';
import { defineProjection, type ReadModelWrite } from '../framework/projection';
import { classifyAction, type AuditAction } from './classify-action';
import { sanitiseBody } from './sanitise-body';

/** One audit row per event, keyed by `<streamId>@<revision>`. */
export type AuditRow = {
  _id: string;
  streamId: string;
  revision: number;
  position: number;
  eventId: string;
  type: string;
  /** The tenant whose history shows the row: the tenant stream's, else the payload's, else the request's. */
  tenantId: number | null;
  /** Whose personal data the event holds (`tenant:<id>` or `user:<id>`), for erasure. */
  subject: string | null;
  /** `user:<id>`, `system:<workflow>` or `anonymous`. */
  actor: string;
  userId: number | null;
  action: AuditAction;
  /** The stream category: tenant, seller, user... */
  asset: string;
  /** The stream id after the category's dash. */
  assetId: string;
  time: Date;
  request: { id: string | null; ip: string | null; url: string | null; method: string | null; body: unknown };
};

/**
 * Users' addresses, kept beside the rows instead of copied into them, so an email change shows on
 * every row and erasing a user clears them in one place. Append-only like the rows (one version per
 * event that sets or erases an address; the newest wins): inserts cost a fraction of in-place
 * updates on the Mongo-wire server, and versions need no guard beyond their key.
 */
export type AuditUserEmail = { _id: string; userId: number; email: string | null; position: number };

type Collections = 'rows' | 'emails';

const userIdOf = (actor: string): number | null => {
  const match = /^user:(\d+)$/.exec(actor);
  return match ? Number(match[1]) : null;
};

/** The command's time, or the store's when the command's is unreadable. */
const timeOf = (event: RecordedEvent): Date => {
  const time = new Date(event.metadata.time);
  return Number.isNaN(time.getTime()) ? new Date(event.recordedAt) : time;
};

const positiveId = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;

const tenantIdOf = (event: RecordedEvent, asset: string, assetId: string): number | null => {
  if (asset === 'tenant') {
    const id = positiveId(Number(assetId));
    if (id !== null) return id;
  }
  const data = (event.data ?? {}) as { TenantId?: unknown; tenantId?: unknown };
  return positiveId(data.TenantId) ?? positiveId(data.tenantId) ?? event.metadata.tenantId;
};

const toRow = (event: RecordedEvent): Omit<AuditRow, '_id' | 'position'> => {
  const { metadata } = event;
  const asset = categoryOf(event.streamId);
  const assetId = event.streamId.slice(asset.length + 1);
  return {
    streamId: event.streamId,
    revision: event.revision,
    eventId: event.id,
    type: event.type,
    tenantId: tenantIdOf(event, asset, assetId),
    subject: subjectOf(event),
    actor: metadata.actor,
    userId: userIdOf(metadata.actor),
    action: classifyAction(event.type),
    asset,
    assetId,
    time: timeOf(event),
    request: {
      id: metadata.requestId,
      ip: metadata.ip,
      url: metadata.url,
      method: metadata.method,
      body: sanitiseBody(metadata.body),
    },
  };
};

type UserData = { UserId?: unknown; Email?: unknown; Permanent?: unknown; TenantId?: unknown };

const rowId = (event: RecordedEvent) => `${event.streamId}@${event.revision}`;

/** A new address version from the user events that carry an address, or erase it. */
const emailWrites = (event: RecordedEvent): ReadModelWrite<Collections>[] => {
  const data = (event.data ?? {}) as UserData;
  if (typeof data.UserId !== 'number') return [];
  const version = (email: string | null): ReadModelWrite<Collections> => ({
    kind: 'insert',
    collection: 'emails',
    id: rowId(event),
    doc: { userId: data.UserId, email },
  });
  switch (event.type) {
    case 'UserRegistered':
    case 'UserEmailChanged':
    case 'UserEmailVerified':
      return typeof data.Email === 'string' ? [version(data.Email)] : [];
    case 'UserDeleted':
      return [version(null)];
    default:
      return [];
  }
};

/** The request ip and body of the subject's rows, as a rebuild after erasing its key reads them. */
const eraseRequestDetails = (subject: string): ReadModelWrite<Collections>[] =>
  erasePersonalFields<Collections>('rows', { subject }, ['request.ip', 'request.body']);

/**
 * Crypto-shredding (docs/adr/0005-personal-data.md): a user's deletion erases the user's key and a
 * purge erases the tenant's key, and a permanent one deletes the tenant's streams. A rebuild after that
 * reads the erased marker, or nothing; live processing must arrive at the same rows, so it erases the
 * request ip and body (where present) of the user's or the purged tenant's rows, and removes a
 * permanently purged tenant's rows, the purge's own included.
 */
const erasureWrites = (event: RecordedEvent): ReadModelWrite<Collections>[] => {
  const data = (event.data ?? {}) as UserData;
  if (event.type === 'UserDeleted' && typeof data.UserId === 'number') {
    return [
      { kind: 'update', collection: 'emails', filter: { userId: data.UserId }, fields: { email: null } },
      ...eraseRequestDetails(userSubject(data.UserId)),
    ];
  }
  if (isPermanentPurge(event) && typeof data.TenantId === 'number') {
    return [{ kind: 'delete', collection: 'rows', filter: { subject: tenantSubject(data.TenantId) } }];
  }
  // A purge that keeps the records erases the tenant's key all the same: its rows stay, unreadable.
  if (event.type === 'TenantPurged' && typeof data.TenantId === 'number') {
    return eraseRequestDetails(tenantSubject(data.TenantId));
  }
  return [];
};

const isPermanentPurge = (event: RecordedEvent): boolean =>
  event.type === 'TenantPurged' && (event.data as UserData | null)?.Permanent === true;

export const AUDIT_HISTORY = 'audit-history';

/** The audit history read model (admin.md: audit history table), generic over every event. */
export const auditHistoryProjection = defineProjection<Collections>({
  name: AUDIT_HISTORY,
  collections: { rows: 'audit_history', emails: 'audit_history_user_emails' },
  indexes: {
    rows: [
      { key: { tenantId: 1, position: -1 }, name: 'tenant_newest_first' },
      { key: { subject: 1 }, name: 'subject' },
    ],
    emails: [{ key: { userId: 1, position: -1 }, name: 'user_newest_first' }],
  },
  project: (event) => [
    ...(isPermanentPurge(event)
      ? []
      : [
          {
            kind: 'insert' as const,
            collection: 'rows' as const,
            id: rowId(event),
            doc: toRow(event),
          },
        ]),
    ...emailWrites(event),
    ...erasureWrites(event),
  ],
});
