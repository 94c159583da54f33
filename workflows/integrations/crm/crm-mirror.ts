import type { AnyBulkWriteOperation, Db, Document, IndexSpecification } from 'mongodb';
import type { CrmCompany, CrmContact, CrmOwner } from './crm-connector';

/**
 * The CRM mirror (docs/adr/0045-crm-sync.md): the companies, contacts and owners a sync read from an
 * integration's CRM, a cache of an external system written in bulk by the sync activity, as the ledger
 * import is (workflows/ledger/write-ledger-page.ts), not events: 100,000 companies a sync as events
 * would be an audit trail of someone else's data. Each record carries the sync job that last saw it;
 * after a complete read the records no job saw are gone from the CRM and are removed.
 */
export const crmMirrorCollections = {
  companies: 'crm_companies',
  contacts: 'crm_contacts',
  owners: 'crm_owners',
} as const;

export type CrmMirrorKind = keyof typeof crmMirrorCollections;
type RecordOf = { companies: CrmCompany; contacts: CrmContact; owners: CrmOwner };

export type CrmMirrorDoc<K extends CrmMirrorKind> = RecordOf[K] & {
  _id: string;
  tenantId: number;
  integrationId: number;
  /** The sync job that last read the record. */
  seenBy: number;
  readAt: Date;
};

export const crmMirrorDocId = (integrationId: number, crmId: string) => `${integrationId}:${crmId}`;

type IndexSpec = { key: IndexSpecification & Record<string, 1 | -1>; name: string };

const mirrorIndexes: Record<CrmMirrorKind, IndexSpec[]> = {
  companies: [
    { key: { integrationId: 1, name: 1 }, name: 'integration_name' },
    { key: { integrationId: 1, seenBy: 1 }, name: 'integration_seen' },
    { key: { tenantId: 1 }, name: 'tenant' },
  ],
  contacts: [
    { key: { integrationId: 1, seenBy: 1 }, name: 'integration_seen' },
    { key: { tenantId: 1 }, name: 'tenant' },
  ],
  owners: [{ key: { integrationId: 1 }, name: 'integration' }],
};

const kinds = Object.keys(crmMirrorCollections) as CrmMirrorKind[];

/** Creates the missing indexes only (see ensureLedgerIndexes: FerretDB drops the connection otherwise). */
export const ensureCrmMirrorIndexes = async (db: Db): Promise<void> => {
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  for (const kind of kinds) {
    const name = crmMirrorCollections[kind];
    const present = existing.has(name)
      ? new Set(
          (await db.collection(name).listIndexes().toArray()).map((index: { name?: unknown }) =>
            String(index.name),
          ),
        )
      : new Set<string>();
    const missing = mirrorIndexes[kind].filter((spec) => !present.has(spec.name));
    if (missing.length > 0) await db.collection(name).createIndexes(missing);
  }
};

export type MirrorScope = { tenantId: number; integrationId: number; jobId: number; now: Date };

/** One page of records in one round trip; a page read again after a crash replaces itself. */
export const writeMirrorPage = async <K extends CrmMirrorKind>(
  db: Db,
  scope: MirrorScope,
  page: { kind: K; records: readonly RecordOf[K][] },
): Promise<number> => {
  const { kind, records } = page;
  if (records.length === 0) return 0;
  const operations = records.map((record): AnyBulkWriteOperation<Document> => {
    const doc = {
      ...record,
      _id: crmMirrorDocId(scope.integrationId, record.crmId),
      tenantId: scope.tenantId,
      integrationId: scope.integrationId,
      seenBy: scope.jobId,
      readAt: scope.now,
    };
    return { replaceOne: { filter: { _id: doc._id } as never, replacement: doc, upsert: true } };
  });
  await db.collection(crmMirrorCollections[kind]).bulkWrite(operations, { ordered: false });
  return records.length;
};

/** After a complete read: what this job did not see was deleted in the CRM. */
export const dropUnseen = async (
  db: Db,
  scope: Pick<MirrorScope, 'integrationId' | 'jobId'>,
  kind: CrmMirrorKind,
) =>
  (
    await db
      .collection(crmMirrorCollections[kind])
      .deleteMany({ integrationId: scope.integrationId, seenBy: { $ne: scope.jobId } })
  ).deletedCount;

export const readMirror = async <K extends CrmMirrorKind>(
  db: Db,
  integrationId: number,
  kind: K,
): Promise<CrmMirrorDoc<K>[]> =>
  (await db
    .collection(crmMirrorCollections[kind])
    .find({ integrationId })
    .toArray()) as unknown as CrmMirrorDoc<K>[];

export const countMirror = async (db: Db, integrationId: number) => {
  const [companies, contacts, owners] = await Promise.all(
    kinds.map((kind) => db.collection(crmMirrorCollections[kind]).countDocuments({ integrationId })),
  );
  return { companies: companies ?? 0, contacts: contacts ?? 0, owners: owners ?? 0 };
};

/** IntegrationDeleted and TenantPurged: the mirror holds customers' names and emails. */
export const deleteMirror = async (db: Db, scope: { integrationId: number } | { tenantId: number }) => {
  for (const kind of kinds) await db.collection(crmMirrorCollections[kind]).deleteMany(scope);
};
