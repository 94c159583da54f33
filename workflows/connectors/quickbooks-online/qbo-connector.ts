import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../../commands/command-handler';
import type { CredentialVault } from '../../../commands/credential-vault';
import type { Config } from '../../../contracts/config';
import { emptyLedgerPage, type LedgerPage } from '../../../contracts/ledger';
import type { FetchedPage, FetchPageRequest, LedgerConnector } from '../../sync/ledger-connector';
import {
  adjustmentsProduct,
  defaultMalformedLog,
  defaultWarn,
  mapOrSkip,
  recordDeletions,
  type MalformedLog,
} from '../shared/ledger-mapping';
import { createOAuthTokens, type OAuthTokens } from '../shared/oauth-tokens';
import type { PlatformHttp } from '../shared/platform-http';
import { createQboClient, QBO_NAME, type QboClient } from './qbo-client';
import { isDeletedObject, QBO_MAX_RESULTS, qboEntities, type QboEntity } from './qbo-formats';
import { compareQboIds, createStoredIds, qboIdsStatement, type StoredIds } from './qbo-id-comparison';
import {
  fillCreditMemoApplications,
  forgetCreditApplications,
  recordPaymentCredits,
} from './qbo-credit-applications';
import {
  mapQboCreditMemo,
  mapQboCustomer,
  mapQboInvoice,
  mapQboItem,
  mapQboPaymentSettlements,
  type QboCreditApplication,
} from './qbo-mapping';

/**
 * QuickBooks Online behind the sync's LedgerConnector seam (docs/adr/0043-accounting-connectors.md).
 *
 * Populate and repopulate read every entity with the query endpoint, ORDERBY Id, STARTPOSITION and
 * MAXRESULTS. Each page starts a few records before the previous one ended and keeps only ids above
 * the last one written: a record deleted between two pages shifts positions without making the sync
 * skip one, and a page that no longer reaches back to the last id backs up a page.
 *
 * A sync reads Change Data Capture since the CollectionDate, one entity per call, deleted objects
 * included (their stored rows are deleted). CDC looks back 30 days at most and answers 1,000 objects
 * at most: an older CollectionDate, or an entity with that many changes, is read with the query
 * endpoint filtered on MetaData.LastUpdatedTime instead, which does not list deletions; for the
 * transactions the sync then pages their ids and deletes the stored ones QuickBooks no longer has
 * (qbo-id-comparison.ts).
 */

type QboCursor = {
  step: number;
  /** `ids`: the id comparison after a sync read the entity by query (qbo-id-comparison.ts). */
  mode: 'query' | 'cdc' | 'ids';
  /** STARTPOSITION of the next query page (1-based). */
  start: number;
  /** The highest id this step wrote: the next page keeps only higher ones. */
  lastId: string | null;
  done: number;
  total: number;
  /** Malformed records skipped so far. */
  skipped: number;
};

/** Records a page re-reads from before the previous page's end. */
const OVERLAP = 10;
/** CDC's look-back limit is 30 days; a day's margin for clocks. */
const CDC_LOOKBACK_MS = 29 * 24 * 3600 * 1000;

const compareIds = compareQboIds;

const idOf = (record: unknown): string | null => {
  const id = (record as { Id?: unknown } | null)?.Id;
  return typeof id === 'string' && id !== '' ? id : null;
};

const activeFilter = (entity: QboEntity) =>
  entity === 'Customer' || entity === 'Item' ? 'Active IN (true, false)' : null;

/** The query of one page: every record of the entity, or those changed since `since`. */
export const qboPageStatement = (
  entity: QboEntity,
  since: Date | null,
  page: { start: number; size: number },
) => {
  const { start, size } = page;
  const conditions = [
    activeFilter(entity),
    since ? `MetaData.LastUpdatedTime > '${since.toISOString()}'` : null,
  ].filter(Boolean);
  const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  return `SELECT * FROM ${entity}${where} ORDERBY Id STARTPOSITION ${start} MAXRESULTS ${size}`;
};

const countStatement = (entity: QboEntity) => {
  const filter = activeFilter(entity);
  return `SELECT COUNT(*) FROM ${entity}${filter ? ` WHERE ${filter}` : ''}`;
};

/** What one fetch maps: the ledger page, and the credits of each payment read (by payment id). */
type Mapped = { page: LedgerPage; credits: Map<string, QboCreditApplication[]> };

const mappers = {
  Customer: (sellerId: number, raw: unknown, { page }: Mapped) => {
    page.customers.push(mapQboCustomer(sellerId, raw));
  },
  Item: (sellerId: number, raw: unknown, { page }: Mapped) => {
    page.products.push(mapQboItem(sellerId, raw));
  },
  Invoice: (sellerId: number, raw: unknown, { page }: Mapped) => {
    page.invoices.push(mapQboInvoice(sellerId, raw));
  },
  Payment: (sellerId: number, raw: unknown, { page, credits }: Mapped) => {
    const settled = mapQboPaymentSettlements(sellerId, raw);
    page.payments.push(settled.payment);
    credits.set(settled.payment.providerId, settled.credits);
  },
  CreditMemo: (sellerId: number, raw: unknown, { page }: Mapped) => {
    page.creditMemos.push(mapQboCreditMemo(sellerId, raw));
  },
} satisfies Record<QboEntity, (sellerId: number, raw: unknown, mapped: Mapped) => void>;

const deletedEntity = { Invoice: 'invoices', Payment: 'payments', CreditMemo: 'creditMemos' } as const;

export type QboConnectorDeps = {
  db: Db;
  client: QboClient;
  tokens: OAuthTokens;
  now: () => Date;
  log?: MalformedLog;
  /** Warnings that are not about one record (a CDC fallback). */
  warn?: (message: string) => void;
  /** The ledger's ids of a comparison in progress (qbo-id-comparison.ts); one per connector. */
  storedIds?: StoredIds;
};

export const createQboConnector = (deps: QboConnectorDeps): LedgerConnector => {
  const log = deps.log ?? defaultMalformedLog;
  const warn = deps.warn ?? defaultWarn;
  const storedIds = deps.storedIds ?? createStoredIds(deps.db);

  const firstCursor = async (request: FetchPageRequest): Promise<QboCursor> => {
    deps.tokens.forget(request.sellerId);
    if (request.since === null) await forgetCreditApplications(deps.db, request.sellerId);
    const useCdc = request.since !== null && deps.now().getTime() - request.since.getTime() < CDC_LOOKBACK_MS;
    let total: number = qboEntities.length;
    if (request.since === null) {
      total = 0;
      for (const entity of qboEntities) {
        const counted = await deps.client.query(request.sellerId, countStatement(entity));
        total += counted.QueryResponse.totalCount ?? 0;
      }
    } else if (!useCdc)
      warn(
        `${QBO_NAME}: seller ${request.sellerId} last synced more than 30 days ago, beyond Change Data ` +
          'Capture; changed records are read, and deletions found by comparing ids.',
      );
    return { step: 0, mode: useCdc ? 'cdc' : 'query', start: 1, lastId: null, done: 0, total, skipped: 0 };
  };

  const mapInto = (
    { sellerId, entity }: { sellerId: number; entity: QboEntity },
    records: unknown[],
    mapped: Mapped,
  ) => {
    let skipped = 0;
    let count = 0;
    for (const raw of records) {
      const ok = mapOrSkip(log, { platform: QBO_NAME, entity, id: idOf(raw) ?? '(no Id)' }, () => {
        mappers[entity](sellerId, raw, mapped);
        return true;
      });
      if (ok === null) skipped += 1;
      else count += 1;
    }
    return { skipped, mapped: count };
  };

  const cdcAllowed = (since: Date | null) =>
    since !== null && deps.now().getTime() - since.getTime() < CDC_LOOKBACK_MS;

  /** The cursor of the next entity, null after the last. */
  const nextStep = (cursor: QboCursor, since: Date | null): QboCursor | null => {
    const step = cursor.step + 1;
    if (step >= qboEntities.length) return null;
    return { ...cursor, step, mode: cdcAllowed(since) ? 'cdc' : 'query', start: 1, lastId: null };
  };

  /**
   * One page of the id comparison: the ids QuickBooks has in the range the page covers, against
   * the ledger's. A page covers from the last id compared through its own last id (the last page:
   * to the end), provided it reaches back to the last id compared; one that does not (more records
   * went before it than the pages overlap) backs up a page, so no id is ever taken for deleted
   * because the paging stepped over it.
   */
  const compareIdPage = async (
    { sellerId, since }: FetchPageRequest,
    cursor: QboCursor,
    page: LedgerPage,
  ): Promise<QboCursor | null> => {
    const entity = qboEntities[cursor.step] as keyof typeof deletedEntity;
    const ledgerEntity = deletedEntity[entity];
    const size = QBO_MAX_RESULTS;
    const result = await deps.client.query(sellerId, qboIdsStatement(entity, { start: cursor.start, size }));
    const records = result.QueryResponse[entity] ?? [];
    const ids = records.map(idOf).filter((id): id is string => id !== null);
    const { lastId } = cursor;
    const first = ids.reduce<string | null>(
      (min, id) => (min === null || compareIds(id, min) < 0 ? id : min),
      null,
    );
    if (cursor.start > 1 && (first === null || lastId === null || compareIds(first, lastId) > 0))
      return { ...cursor, start: Math.max(1, cursor.start - size) };
    if (records.length >= size && ids.length === 0)
      throw new Error(`${QBO_NAME} answered a page of ${entity} ids without ids`);
    const last = records.length < size ? null : ids.reduce((max, id) => (compareIds(id, max) > 0 ? id : max));
    const key = `${sellerId}:${entity}:${since?.toISOString() ?? ''}`;
    const gone = await storedIds.missing({
      key,
      sellerId,
      entity: ledgerEntity,
      after: lastId,
      through: last,
      present: new Set(ids),
    });
    if (gone.length > 0) {
      await recordDeletions(
        { sellerId },
        gone.map((providerId) => ({ entity: ledgerEntity, providerId })),
        page,
      );
      if (entity === 'Payment')
        await recordPaymentCredits({ db: deps.db, sellerId }, new Map(gone.map((id) => [id, []])), page);
    }
    if (last === null) {
      storedIds.done(key);
      return nextStep({ ...cursor, done: cursor.step + 1 }, since);
    }
    const overlap = Math.min(OVERLAP, Math.floor(size / 2));
    return { ...cursor, lastId: last, start: cursor.start + records.length - overlap };
  };

  const fetchOne = async (request: FetchPageRequest): Promise<FetchedPage> => {
    const { sellerId, since } = request;
    const cursor: QboCursor =
      request.cursor === null ? await firstCursor(request) : (JSON.parse(request.cursor) as QboCursor);
    const page = emptyLedgerPage();
    const mapped: Mapped = { page, credits: new Map() };
    if (request.cursor === null) page.products.push(adjustmentsProduct(sellerId));
    const entity = qboEntities[cursor.step]!;
    /** Credit memo applications live on payments: kept per payment, given to the memos. */
    const settleCredits = async () => {
      if (entity === 'Payment') await recordPaymentCredits({ db: deps.db, sellerId }, mapped.credits, page);
      if (entity === 'CreditMemo') await fillCreditMemoApplications({ db: deps.db, sellerId }, page);
    };
    const answer = (next: QboCursor | null, skipped: number): FetchedPage => {
      const total = Math.max(cursor.total, next?.done ?? 0);
      const skippedAll = cursor.skipped + skipped;
      if (next === null && skippedAll > 0)
        warn(`${QBO_NAME}: seller ${sellerId}: ${skippedAll} malformed records were skipped`);
      return {
        page,
        nextCursor: next === null ? null : JSON.stringify({ ...next, skipped: skippedAll }),
        done: next === null ? total : Math.min(next.done, total),
        total,
      };
    };

    if (cursor.mode === 'cdc') {
      const changes = await deps.client.cdc(sellerId, [entity], since ?? new Date(0));
      const records = changes.CDCResponse.flatMap((r) => r.QueryResponse).flatMap((q) => q[entity] ?? []);
      if (records.length >= QBO_MAX_RESULTS) {
        warn(
          `${QBO_NAME}: seller ${sellerId} changed ${records.length}+ ${entity} records since the last ` +
            'sync, more than Change Data Capture answers; they are read page by page, and deletions ' +
            'found by comparing ids.',
        );
        return answer({ ...cursor, mode: 'query', start: 1, lastId: null }, 0);
      }
      const deleted = records.filter(isDeletedObject);
      const active = records.filter((r) => !isDeletedObject(r));
      const { skipped } = mapInto({ sellerId, entity }, active, mapped);
      await settleCredits();
      if (entity in deletedEntity && deleted.length > 0)
        await recordDeletions(
          { sellerId },
          deleted.map((d) => ({
            entity: deletedEntity[entity as keyof typeof deletedEntity],
            providerId: d.Id,
          })),
          page,
        );
      if (entity === 'Payment' && deleted.length > 0)
        await recordPaymentCredits({ db: deps.db, sellerId }, new Map(deleted.map((d) => [d.Id, []])), page);
      return answer(nextStep({ ...cursor, done: cursor.step + 1 }, since), skipped);
    }

    if (cursor.mode === 'ids') return answer(await compareIdPage(request, cursor, page), 0);

    const size = Math.max(1, Math.min(request.pageSize, QBO_MAX_RESULTS));
    const result = await deps.client.query(
      sellerId,
      qboPageStatement(entity, since, { start: cursor.start, size }),
    );
    const records = result.QueryResponse[entity] ?? [];
    const ids = records.map(idOf).filter((id): id is string => id !== null);
    const { lastId } = cursor;
    const first = ids[0];
    if (
      lastId !== null &&
      cursor.start > 1 &&
      first !== undefined &&
      compareIds(first, lastId) > 0 &&
      !ids.includes(lastId)
    )
      // More records went than the overlap covers: back up a page; nothing is written twice.
      return answer({ ...cursor, start: Math.max(1, cursor.start - size) }, 0);
    const fresh = records.filter((raw) => {
      const id = idOf(raw);
      return lastId === null || id === null || compareIds(id, lastId) > 0;
    });
    const { skipped, mapped: count } = mapInto({ sellerId, entity }, fresh, mapped);
    await settleCredits();
    const highest = ids.reduce<string | null>(
      (max, id) => (max === null || compareIds(id, max) > 0 ? id : max),
      lastId,
    );
    const progressed: QboCursor = {
      ...cursor,
      lastId: highest,
      done: since === null ? cursor.done + count + skipped : cursor.step,
    };
    if (records.length < size && since !== null && entity in deletedEntity)
      // A sync read the entity by query, which lists no deletions: compare ids next.
      return answer({ ...progressed, mode: 'ids', start: 1, lastId: null }, skipped);
    if (records.length < size)
      return answer(
        nextStep({ ...progressed, done: since === null ? progressed.done : cursor.step + 1 }, since),
        skipped,
      );
    const overlap = Math.min(OVERLAP, Math.floor(size / 2));
    return answer({ ...progressed, start: cursor.start + records.length - overlap }, skipped);
  };

  return {
    /**
     * One sync page of up to pageSize records: as many API calls (1,000 records at most each) as
     * fit, so a page costs the writer what a DEMO page does.
     */
    fetchPage: async (request): Promise<FetchedPage> => {
      let fetched = await fetchOne(request);
      let records = recordCount(fetched.page);
      // Calls are bounded too: an id comparison's calls write no records.
      let calls = 1;
      while (
        fetched.nextCursor !== null &&
        records + QBO_MAX_RESULTS <= request.pageSize &&
        (calls += 1) * QBO_MAX_RESULTS <= request.pageSize
      ) {
        const more = await fetchOne({ ...request, cursor: fetched.nextCursor, pageSize: QBO_MAX_RESULTS });
        for (const entity of ledgerEntityNames)
          (fetched.page[entity] as unknown[]).push(...more.page[entity]);
        if (more.page.deletions?.length)
          fetched.page.deletions = [...(fetched.page.deletions ?? []), ...more.page.deletions];
        fetched = { ...more, page: fetched.page };
        records = recordCount(fetched.page);
      }
      // A memo whose applications two payment calls changed is written once, as it ends.
      fetched.page.creditMemos = [
        ...new Map(fetched.page.creditMemos.map((memo) => [memo.providerId, memo])).values(),
      ];
      return fetched;
    },
  };
};

const ledgerEntityNames = ['customers', 'products', 'invoices', 'payments', 'creditMemos'] as const;
const recordCount = (page: LedgerPage) => ledgerEntityNames.reduce((n, entity) => n + page[entity].length, 0);

/** The QuickBooks Online connector as the sync worker builds it, from the configuration. */
export const createQuickBooksOnlineConnector = (deps: {
  db: Db;
  vault: CredentialVault;
  config: Config;
  writeSide: CommandHandlerDeps;
  now: () => Date;
  fetch?: typeof fetch;
}): LedgerConnector => {
  const { config } = deps;
  const http: PlatformHttp = {
    platform: QBO_NAME,
    fetch: deps.fetch,
    now: deps.now,
    maxRetryWaitMs: config.CONNECTOR_MAX_RETRY_WAIT_SECONDS * 1000,
  };
  const tokens = createOAuthTokens({
    writeSide: deps.writeSide,
    vault: deps.vault,
    now: deps.now,
    http,
    endpoint: {
      tokenUrl: config.OAUTH_QBO_TOKEN_URL,
      clientId: config.OAUTH_QBO_CLIENT_ID,
      clientSecret: config.OAUTH_QBO_CLIENT_SECRET,
      clientAuth: 'basic',
    },
  });
  const client = createQboClient({ baseUrl: config.QBO_API_URL, tokens, http });
  return createQboConnector({ db: deps.db, client, tokens, now: deps.now });
};
