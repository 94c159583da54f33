import type { LedgerFeedRecord } from '../../contracts/kafka/ledger-records';
import type { LedgerEntity } from '../../contracts/ledger';
import {
  factGroups,
  factIdOf,
  type FactDoc,
  type FactFields,
  type FactGroupDoc,
} from '../../projections/analytics/analytics-store';
import { ledgerEntities } from '../ledger/ledger-collections';

/**
 * Feed lines to fact versions (docs/adr/0041-analytics-exactly-once.md): plain functions, run by the
 * analytics consumer on its facts thread (ledger-facts-thread.ts) or, without one, inline.
 */
const DAY_MS = 86_400_000;
const digits = (text: string, from: number, to: number) => {
  let value = 0;
  for (let i = from; i < to; i += 1) value = value * 10 + text.charCodeAt(i) - 48;
  return value;
};
/** Days since 1970-01-01 of a UTC date (Howard Hinnant's days_from_civil). */
const daysFromCivil = (year: number, month: number, day: number) => {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
};
/**
 * The UTC day of an ISO date. The feed's dates are JSON dates (`2024-01-31T00:00:00.000Z`, UTC), read
 * from their digits; anything else goes through Date.
 */
export const dayOf = (iso: unknown): number => {
  if (typeof iso === 'string' && iso.length === 24 && iso.charCodeAt(23) === 90 /* Z */)
    return daysFromCivil(digits(iso, 0, 4), digits(iso, 5, 7), digits(iso, 8, 10));
  return Math.floor(new Date(String(iso)).getTime() / DAY_MS);
};
const int = (value: unknown) => (typeof value === 'number' ? Math.round(value) : 0);

const applicationsOf = (value: unknown): [string, number][] =>
  Array.isArray(value)
    ? value.flatMap((application: unknown) => {
        if (typeof application !== 'object' || application === null) return [];
        const { invoiceProviderId, amount } = application as Record<string, unknown>;
        return typeof invoiceProviderId === 'string'
          ? [[invoiceProviderId, int(amount)] as [string, number]]
          : [];
      })
    : [];

/** The fields the figures need from one feed record (contracts/ledger.ts names them). */
export const factFieldsOf = (entity: LedgerEntity, record: LedgerFeedRecord['record']): FactFields => {
  switch (entity) {
    case 'customers':
      return { entity, customerId: int(record.customerId), createdDay: dayOf(record.createdAt) };
    case 'products':
      return { entity };
    case 'invoices':
      return {
        entity,
        customerId: int(record.customerId),
        day: dayOf(record.transactionDate),
        dueDay: dayOf(record.dueDate),
        amount: int(record.amount),
        balance: int(record.balance),
      };
    case 'payments':
    case 'creditMemos':
      return {
        entity,
        customerId: int(record.customerId),
        day: dayOf(record.date),
        amount: int(record.amount),
        apps: applicationsOf(record.applications),
      };
  }
};

/**
 * A feed line to its fact. The parse is plain JSON.parse plus field reads: the producer is ours and
 * its zod schema (contracts/kafka/ledger-records.ts) is checked by the feed tests, not per record.
 */
export const parseLine = (value: Buffer | string): LedgerFeedRecord | null => {
  let parsed: LedgerFeedRecord;
  try {
    parsed = JSON.parse(value.toString()) as LedgerFeedRecord;
  } catch {
    return null;
  }
  // A line that cannot be keyed is skipped: read on, it would throw, and kafkajs would deliver the
  // same batch again and again (a poison record stalling its partition).
  return typeof parsed === 'object' &&
    parsed !== null &&
    parsed.schemaVersion === 1 &&
    ledgerEntities.includes(parsed.entity) &&
    Number.isSafeInteger(parsed.sellerId) &&
    Number.isSafeInteger(parsed.epoch) &&
    typeof parsed.providerId === 'string' &&
    typeof parsed.record === 'object' &&
    parsed.record !== null
    ? parsed
    : null;
};

export const factOf = (value: Buffer | string, offset: number): FactDoc | null => {
  const parsed = parseLine(value);
  if (!parsed) return null;
  return {
    _id: factIdOf(parsed.entity, parsed.sellerId, parsed.providerId),
    sellerId: parsed.sellerId,
    epoch: parsed.epoch,
    offset,
    ...factFieldsOf(parsed.entity, parsed.record),
    // A tombstone: the record was deleted; its fact stays as the newest version, out of the figures.
    ...(parsed.deleted === true ? { deleted: true as const } : {}),
  };
};

/** One partition batch's lines, parsed and packed: its fact groups and how many records they hold. */
export type BuiltBatch = { groups: FactGroupDoc[]; records: number };

/**
 * Each line straight to its packed version in its seller's group (one document per entity and
 * seller); a line that cannot be keyed is skipped.
 */
export const buildBatch = (
  count: number,
  lineAt: (index: number) => Buffer | string | null,
  offsetAt: (index: number) => number,
): BuiltBatch => {
  const groups = factGroups();
  let records = 0;
  for (let i = 0; i < count; i += 1) {
    const value = lineAt(i);
    const parsed = value ? parseLine(value) : null;
    if (!parsed) continue;
    const version = {
      entity: parsed.entity,
      sellerId: parsed.sellerId,
      providerId: parsed.providerId,
      epoch: parsed.epoch,
      offset: offsetAt(i),
      deleted: parsed.deleted === true,
    };
    groups.add(version, factFieldsOf(parsed.entity, parsed.record));
    records += 1;
  }
  return { groups: groups.build(), records };
};
