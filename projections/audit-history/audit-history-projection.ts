import type { RecordedEvent } from '../../contracts/events/envelope';
import { categoryOf } from '../../commands/event-store/event-store';
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
  tenantId: number | null;
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
 * Users' current addresses, kept beside the rows instead of copied into them: an email change shows
 * on every row, and erasing a user clears the one copy.
 */
export type AuditUser = { _id: number; email: string | null; position: number };

type Collections = 'rows' | 'users';

const userIdOf = (actor: string): number | null => {
  const match = /^user:(\d+)$/.exec(actor);
  return match ? Number(match[1]) : null;
};

/** The command's time, or the store's when the command's is unreadable. */
const timeOf = (event: RecordedEvent): Date => {
  const time = new Date(event.metadata.time);
  return Number.isNaN(time.getTime()) ? new Date(event.recordedAt) : time;
};

const tenantIdOf = (event: RecordedEvent, asset: string, assetId: string): number | null => {
  if (event.metadata.tenantId !== null) return event.metadata.tenantId;
  const id = Number(assetId);
  return asset === 'tenant' && Number.isInteger(id) && id > 0 ? id : null;
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

/** Writes to the users collection, from the user events that carry or erase an address. */
const userWrites = (event: RecordedEvent): ReadModelWrite<Collections>[] => {
  const data = (event.data ?? {}) as UserData;
  if (typeof data.UserId !== 'number') return [];
  switch (event.type) {
    case 'UserRegistered':
    case 'UserEmailChanged':
    case 'UserEmailVerified':
      return typeof data.Email === 'string'
        ? [{ kind: 'set', collection: 'users', id: data.UserId, fields: { email: data.Email } }]
        : [];
    case 'UserDeleted':
      return [{ kind: 'set', collection: 'users', id: data.UserId, fields: { email: null } }];
    default:
      return [];
  }
};

/**
 * A permanent purge removes the tenant's events from the store, so a rebuild would not have their
 * rows; live processing removes them too, and keeps the purge's own row as the record.
 */
const purgeWrites = (event: RecordedEvent): ReadModelWrite<Collections>[] => {
  const data = (event.data ?? {}) as UserData;
  if (event.type !== 'TenantPurged' || data.Permanent !== true || typeof data.TenantId !== 'number')
    return [];
  return [{ kind: 'delete', collection: 'rows', filter: { tenantId: data.TenantId } }];
};

export const AUDIT_HISTORY = 'audit-history';

/** The audit history read model (admin.md: audit history table), generic over every event. */
export const auditHistoryProjection = defineProjection<Collections>({
  name: AUDIT_HISTORY,
  collections: { rows: 'audit_history', users: 'audit_history_users' },
  indexes: {
    rows: [{ key: { tenantId: 1, position: -1 }, name: 'tenant_newest_first' }],
  },
  project: (event) => [
    ...purgeWrites(event),
    {
      kind: 'insert',
      collection: 'rows',
      id: `${event.streamId}@${event.revision}`,
      doc: toRow(event),
    },
    ...userWrites(event),
  ],
});
