import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../../commands/command-handler';
import type { CredentialVault } from '../../../commands/credential-vault';
import type { Config } from '../../../contracts/config';
import { emptyLedgerPage, type LedgerPage } from '../../../contracts/ledger';
import type { FetchedPage, LedgerConnector } from '../../sync/ledger-connector';
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
import { createXeroClient, XERO_NAME, xeroLimitName, type XeroClient } from './xero-client';
import { goneStatuses, xeroSteps, type XeroStep } from './xero-formats';
import {
  mapXeroContact,
  mapXeroCreditNote,
  mapXeroInvoice,
  mapXeroItem,
  mapXeroPayment,
} from './xero-mapping';

/**
 * Xero behind the sync's LedgerConnector seam (docs/adr/0043-accounting-connectors.md): contacts,
 * items, sales invoices, their payments and credit notes, page by page (`page`, `pageSize`) ordered
 * by the record's id, so an edit during the sync moves nothing; a sync sends If-Modified-Since (the
 * CollectionDate), and Xero then also answers documents deleted or voided since, whose stored rows are
 * deleted. Xero keeps deleted documents, so populate paging is not shifted by deletes either.
 */

type XeroCursor = { tenantId: string; step: number; page: number; skipped: number; done: number };

const MAX_PAGE_SIZE = 1000;

const goneEntity = { Invoices: 'invoices', Payments: 'payments', CreditNotes: 'creditMemos' } as const;

export const createXeroLedgerConnector = (deps: {
  db: Db;
  client: XeroClient;
  tokens: OAuthTokens;
  now: () => Date;
  log?: MalformedLog;
  warn?: (message: string) => void;
}): LedgerConnector => {
  const log = deps.log ?? defaultMalformedLog;
  const warn = deps.warn ?? defaultWarn;

  const mapOne = (
    { step, sellerId }: { step: XeroStep; sellerId: number },
    raw: unknown,
    page: LedgerPage,
  ) => {
    switch (step.entity) {
      case 'Contacts':
        return page.customers.push(mapXeroContact(sellerId, raw, deps.now()));
      case 'Items':
        return page.products.push(mapXeroItem(sellerId, raw));
      case 'Invoices':
        return page.invoices.push(mapXeroInvoice(sellerId, raw));
      case 'Payments':
        return page.payments.push(mapXeroPayment(sellerId, raw));
      case 'CreditNotes':
        return page.creditMemos.push(mapXeroCreditNote(sellerId, raw));
    }
  };

  return {
    fetchPage: async (request): Promise<FetchedPage> => {
      const { sellerId } = request;
      let cursor: XeroCursor;
      const page = emptyLedgerPage();
      if (request.cursor === null) {
        deps.tokens.forget(sellerId);
        cursor = { tenantId: await deps.client.tenantOf(sellerId), step: 0, page: 1, skipped: 0, done: 0 };
        page.products.push(adjustmentsProduct(sellerId));
      } else cursor = JSON.parse(request.cursor) as XeroCursor;
      const step = xeroSteps[cursor.step]!;
      const pageSize = Math.max(1, Math.min(request.pageSize, MAX_PAGE_SIZE));
      const params: Record<string, string> = step.paged
        ? { page: String(cursor.page), pageSize: String(pageSize), order: `${step.id} ASC` }
        : {};
      if (step.where) params.where = step.where;
      if (step.entity === 'Contacts' || step.entity === 'Items') params.includeArchived = 'true';
      const answer = await deps.client.list(sellerId, {
        tenantId: cursor.tenantId,
        endpoint: step.entity,
        params,
        modifiedSince: request.since,
      });
      const records = Array.isArray(answer[step.key]) ? (answer[step.key] as unknown[]) : [];
      const gone: { entity: 'invoices' | 'payments' | 'creditMemos'; providerId: string }[] = [];
      let skipped = 0;
      for (const raw of records) {
        const record = raw as Record<string, unknown>;
        const id = typeof record[step.id] === 'string' ? (record[step.id] as string) : '(no id)';
        if (step.entity in goneEntity && goneStatuses.has(String(record.Status))) {
          gone.push({ entity: goneEntity[step.entity as keyof typeof goneEntity], providerId: id });
          continue;
        }
        const mapped = mapOrSkip(log, { platform: XERO_NAME, entity: step.entity, id }, () =>
          mapOne({ step, sellerId }, raw, page),
        );
        if (mapped === null) skipped += 1;
      }
      if (gone.length > 0) await recordDeletions({ sellerId }, gone, page);
      const skippedAll = cursor.skipped + skipped;
      const stepDone = !step.paged || records.length < pageSize;
      const done = cursor.done + records.length;
      let next: XeroCursor | null = stepDone
        ? { ...cursor, step: cursor.step + 1, page: 1, skipped: skippedAll, done }
        : { ...cursor, page: cursor.page + 1, skipped: skippedAll, done };
      if (next.step >= xeroSteps.length) next = null;
      if (next === null && skippedAll > 0)
        warn(`${XERO_NAME}: seller ${sellerId}: ${skippedAll} malformed records were skipped`);
      // Xero does not count records up front: progress is by entity, a page at a time.
      const total = xeroSteps.length;
      return {
        page,
        nextCursor: next === null ? null : JSON.stringify(next),
        done: next === null ? total : Math.min(next.step, total),
        total,
      };
    },
  };
};

/** The Xero connector as the sync worker builds it, from the configuration. */
export const createXeroConnector = (deps: {
  db: Db;
  vault: CredentialVault;
  config: Config;
  writeSide: CommandHandlerDeps;
  now: () => Date;
  fetch?: typeof fetch;
}): LedgerConnector => {
  const { config } = deps;
  const http: PlatformHttp = {
    platform: XERO_NAME,
    fetch: deps.fetch,
    now: deps.now,
    maxRetryWaitMs: config.CONNECTOR_MAX_RETRY_WAIT_SECONDS * 1000,
    limitName: xeroLimitName,
  };
  const tokens = createOAuthTokens({
    writeSide: deps.writeSide,
    vault: deps.vault,
    now: deps.now,
    http,
    endpoint: {
      tokenUrl: config.OAUTH_XERO_TOKEN_URL,
      clientId: config.OAUTH_XERO_CLIENT_ID,
      clientSecret: config.OAUTH_XERO_CLIENT_SECRET,
      clientAuth: 'basic',
    },
  });
  const client = createXeroClient({ baseUrl: config.XERO_API_URL, tokens, http });
  return createXeroLedgerConnector({ db: deps.db, client, tokens, now: deps.now });
};
