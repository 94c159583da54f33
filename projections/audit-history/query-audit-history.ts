import type { Db } from 'mongodb';
import { auditHistoryMaxRows } from '../../contracts/api/audit';
import { currentCollection } from '../framework/read-model-versions';
import { projectionPositions } from '../framework/read-your-writes';
import type { AuditAction } from './classify-action';
import {
  AUDIT_HISTORY,
  auditHistoryProjection,
  type AuditRow,
  type AuditUserEmail,
} from './audit-history-projection';

/** admin.md: the audit history shows at most 1000 rows (the API's limit). */
export const AUDIT_HISTORY_MAX_ROWS = auditHistoryMaxRows;

export type AuditHistoryEntry = {
  id: string;
  userId: number | null;
  /** The user's current address; null for system actions and erased users. */
  userEmail: string | null;
  actor: string;
  action: AuditAction;
  type: string;
  asset: string;
  assetId: string;
  time: string;
  request: AuditRow['request'];
};

export type AuditHistoryQuery = {
  /** Always required: even a platform admin reads one tenant's history at a time. */
  tenantId: number;
  /** 1 to 1000; default 1000. */
  limit?: number;
  /** Read-your-writes: wait (bounded) until the read model has processed this position. */
  afterPosition?: number;
  waitTimeoutMs?: number;
};

export type AuditHistoryPage = {
  entries: AuditHistoryEntry[];
  /** True when `afterPosition` was not reached in time: the answer may miss the caller's own change. */
  stale: boolean;
};

const clampLimit = (limit: number | undefined): number =>
  Math.max(1, Math.min(AUDIT_HISTORY_MAX_ROWS, Math.trunc(limit ?? AUDIT_HISTORY_MAX_ROWS)));

/** A tenant's audit history, newest first. Tenancy checks happen in the gateway; this filters by tenant. */
export const queryAuditHistory = async (db: Db, query: AuditHistoryQuery): Promise<AuditHistoryPage> => {
  if (!Number.isInteger(query.tenantId) || query.tenantId <= 0) {
    throw new Error(`queryAuditHistory: tenantId must be a positive integer, got ${query.tenantId}`);
  }
  let stale = false;
  if (query.afterPosition !== undefined) {
    const wait = await projectionPositions(db).waitForPosition(
      AUDIT_HISTORY,
      query.afterPosition,
      query.waitTimeoutMs,
    );
    stale = !wait.reached;
  }
  const rowsCollection = await currentCollection<'rows' | 'emails', AuditRow>(
    db,
    auditHistoryProjection,
    'rows',
  );
  const rows = await rowsCollection
    .find({ tenantId: query.tenantId })
    .sort({ position: -1 })
    .limit(clampLimit(query.limit))
    .toArray();
  // No $lookup on the read side (FerretDB lacks it): the page's users come in one second query.
  const userIds = [...new Set(rows.flatMap((row) => (row.userId === null ? [] : [row.userId])))];
  const emailsCollection = await currentCollection<'rows' | 'emails', AuditUserEmail>(
    db,
    auditHistoryProjection,
    'emails',
  );
  const versions =
    userIds.length === 0
      ? []
      : await emailsCollection
          .find({ userId: { $in: userIds } })
          .sort({ position: -1 })
          .toArray();
  const emails = new Map<number, string | null>();
  for (const version of versions) if (!emails.has(version.userId)) emails.set(version.userId, version.email);
  const entries = rows.map((row): AuditHistoryEntry => ({
    id: row._id,
    userId: row.userId,
    userEmail: row.userId === null ? null : (emails.get(row.userId) ?? null),
    actor: row.actor,
    action: row.action,
    type: row.type,
    asset: row.asset,
    assetId: row.assetId,
    time: row.time.toISOString(),
    request: row.request,
  }));
  return { entries, stale };
};
