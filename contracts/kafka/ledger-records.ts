import { z } from 'zod';
import { EntityId, IsoDateTime } from '../events/values';
import { LedgerEntity } from '../ledger';

/**
 * The ledger feed (docs/kafka-topics.md): one topic per entity, versioned in its name, keyed by seller
 * id so that a seller's records stay in order on one partition. Delivery is at least once: consumers
 * dedupe on `recordId`, which names one version of one record.
 */
export const ledgerTopicSuffixes: Record<LedgerEntity, string> = {
  customers: 'ledger.customers.v1',
  products: 'ledger.products.v1',
  invoices: 'ledger.invoices.v1',
  payments: 'ledger.payments.v1',
  creditMemos: 'ledger.credit-memos.v1',
};

export const ledgerTopicOf = (prefix: string, entity: LedgerEntity) =>
  `${prefix}.${ledgerTopicSuffixes[entity]}`;

/** The record as the ledger stores it, dates as ISO strings; its fields per entity are in contracts/ledger.ts. */
export const LedgerRecordValue = z.record(z.string(), z.json());

export const LedgerFeedRecord = z.object({
  schemaVersion: z.literal(1),
  /** `<entity>:<sellerId>:<providerId>:<epoch>:<hash>`: the same content of the same record has the same id. */
  recordId: z.string().min(1),
  entity: LedgerEntity,
  sellerId: EntityId,
  tenantId: EntityId,
  providerId: z.string().min(1),
  /**
   * The seller's ledger epoch: a repopulate starts a new one. A consumer that sees a newer epoch for a
   * seller drops what it holds of older epochs; records of an older epoch arriving late are ignored.
   */
  epoch: z.int().nonnegative(),
  changedAt: IsoDateTime,
  /**
   * A tombstone: the record was deleted (its `record` is empty). Its recordId ends `:deleted`; a
   * consumer drops what it holds of the key unless it holds a newer version.
   */
  deleted: z.literal(true).optional(),
  record: LedgerRecordValue,
});
export type LedgerFeedRecord = z.infer<typeof LedgerFeedRecord>;

export const ledgerRecordIdOf = (parts: {
  entity: LedgerEntity;
  sellerId: number;
  providerId: string;
  epoch: number;
  hash: string;
}) => `${parts.entity}:${parts.sellerId}:${parts.providerId}:${parts.epoch}:${parts.hash}`;
