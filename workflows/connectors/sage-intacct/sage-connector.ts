import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../../commands/command-handler';
import type { CredentialVault } from '../../../commands/credential-vault';
import type { Config } from '../../../contracts/config';
import { emptyLedgerPage, type LedgerPage } from '../../../contracts/ledger';
import type { FetchedPage, LedgerConnector } from '../../sync/ledger-connector';
import { failureTypes, userFailure } from '../shared/connector-failure';
import {
  adjustmentsProduct,
  defaultMalformedLog,
  defaultWarn,
  mapOrSkip,
  type MalformedLog,
} from '../shared/ledger-mapping';
import { latestSellerFact } from '../qbd/qbd-session';
import type { XmlElement } from '../qbd/xml';
import {
  readByQuery,
  readMore,
  SageError,
  type SageData,
  type SageLogin,
  type SageSender,
} from './sage-client';
import {
  mapSageAdjustment,
  mapSageCustomer,
  mapSageInvoice,
  mapSageLineItem,
  mapSagePayment,
  sageApplications,
  sageDateTime,
  sageRecordId,
} from './sage-mapping';
import type { LedgerCreditMemo } from '../../../contracts/ledger';
import { ledgerCollections, ledgerDocId, type LedgerDoc } from '../../ledger/ledger-collections';
import { textAt } from '../qbd/xml';

/**
 * Sage Intacct behind the LedgerConnector seam (ADR 44, Sage section). One step per object:
 * CUSTOMER, ARINVOICE, ARADJUSTMENT, ARPYMT. A step starts with readByQuery (everything on a
 * populate, `WHENMODIFIED >= '<since>'` on a sync) and goes on with readMore on its resultId until
 * numremaining is 0; the cursor keeps the step and the resultId, so a retried activity resumes with
 * the same readMore. Deletions are not read (Sage's XML API lists no deleted records): Repopulate
 * finds them.
 *
 * What a page's records need from other objects is read with the page, by key (`<KEY> IN (...)`,
 * every page of the answer): an invoice page's ARINVOICEITEMs (its lines), an adjustment page's and a
 * payment page's ARPYMTDETAILs (their applications). A sync's payment page also rewrites the stored
 * credit adjustments its details apply, since applying a credit need not change the adjustment.
 */

const NAME = 'Sage Intacct';
export const SAGE_MAX_PAGE = 1000;

/** Records of another object a page's records need, by the field naming them. */
type Related = { object: string; key: string };

const steps = [
  { object: 'CUSTOMER', entity: 'customers', map: mapSageCustomer, related: null },
  {
    object: 'ARINVOICE',
    entity: 'invoices',
    map: mapSageInvoice,
    related: { object: 'ARINVOICEITEM', key: 'RECORDKEY' },
  },
  {
    object: 'ARADJUSTMENT',
    entity: 'creditMemos',
    map: mapSageAdjustment,
    related: { object: 'ARPYMTDETAIL', key: 'ADJUSTMENTKEY' },
  },
  {
    object: 'ARPYMT',
    entity: 'payments',
    map: mapSagePayment,
    related: { object: 'ARPYMTDETAIL', key: 'PAYMENTKEY' },
  },
] as const satisfies readonly {
  object: string;
  entity: keyof LedgerPage;
  map: (sellerId: number, record: XmlElement, related: readonly XmlElement[]) => unknown;
  related: Related | null;
}[];

/** Sage's error number for a readMore on a result set it no longer holds. */
const EXPIRED_RESULT = 'DL02000001';

/** Keys per `IN (...)` query: a long query is one Sage refuses. */
const KEYS_PER_QUERY = 200;

const literal = (key: string) => (/^\d+$/.test(key) ? key : `'${key.replace(/'/g, "''")}'`);

/**
 * Where a sync stands: the step (object), its readMore resultId, records read and counted so far over
 * all steps, and, within the step, how many it has read and how many Sage said remained. Cursors
 * stored before the last two existed lack them.
 */
type SageCursor = {
  step: number;
  resultId: string | null;
  read: number;
  total: number;
  stepRead?: number;
  remaining?: number;
};

/**
 * Whether Sage's answer to a readMore starts later than the cursor expected: fewer records read and
 * remaining than remained before. Unknown for cursors stored before `remaining` was kept.
 */
const skippedABatch = (cursor: SageCursor, data: SageData): boolean =>
  cursor.remaining !== undefined && data.records.length + data.numRemaining < cursor.remaining;

/** The cursor at the start of its step, its counts taken back to what the steps before it read. */
const restartStep = (cursor: SageCursor): SageCursor => {
  const stepRead = cursor.stepRead ?? 0;
  const stepTotal = stepRead + (cursor.remaining ?? 0);
  return { step: cursor.step, resultId: null, read: cursor.read - stepRead, total: cursor.total - stepTotal };
};

export type SageConnectorDeps = {
  sender: SageSender;
  /** The stored ledger, for the credit adjustments a sync's payments apply; without it they wait. */
  db?: Db;
  /** The company's login of the connect form, from the credential vault. */
  loginOf: (sellerId: number) => Promise<SageLogin>;
  log?: MalformedLog;
};

/** The platform's refusal in words: a sign-in refused asks the user to reconnect. */
const asFailure = (error: unknown): unknown => {
  if (!(error instanceof SageError)) return error;
  if (error.authentication)
    return userFailure(
      `${NAME} refused the sign-in: ${error.message} Check the company, user and password on the Platforms page.`,
      failureTypes.refused,
    );
  return userFailure(`${NAME} refused the request: ${error.message}`, failureTypes.refused);
};

export const createSageConnector = (deps: SageConnectorDeps): LedgerConnector => {
  const log = deps.log ?? defaultMalformedLog;

  /** Every record of `related.object` naming one of `keys`, grouped by the key. */
  const readRelated = async (login: SageLogin, related: Related, keys: readonly string[]) => {
    const byKey = new Map<string, XmlElement[]>();
    const unique = [...new Set(keys)];
    for (let i = 0; i < unique.length; i += KEYS_PER_QUERY) {
      const chunk = unique.slice(i, i + KEYS_PER_QUERY);
      let data = await readByQuery(deps.sender, login, {
        object: related.object,
        query: `${related.key} IN (${chunk.map(literal).join(',')})`,
        pageSize: SAGE_MAX_PAGE,
      });
      for (;;) {
        for (const record of data.records) {
          const key = textAt(record, related.key);
          if (key) byKey.set(key, [...(byKey.get(key) ?? []), record]);
        }
        if (data.numRemaining <= 0 || data.resultId === null) break;
        data = await readMore(deps.sender, login, data.resultId);
      }
    }
    return byKey;
  };

  /** The stored credit adjustments that `details` apply, with all their applications as now. */
  const creditsApplied = async (
    { sellerId, login }: { sellerId: number; login: SageLogin },
    details: readonly XmlElement[],
  ): Promise<LedgerCreditMemo[]> => {
    const db = deps.db;
    const keys = [...new Set(details.map((d) => textAt(d, 'ADJUSTMENTKEY')).filter((k): k is string => !!k))];
    if (!db || keys.length === 0) return [];
    const stored = (await db
      .collection<LedgerDoc<'creditMemos'>>(ledgerCollections.creditMemos)
      .find({ _id: { $in: keys.map((key) => ledgerDocId(sellerId, key)) } } as never, {
        projection: { _id: 0, tenantId: 0, epoch: 0, hash: 0, changedAt: 0 },
      })
      .toArray()) as unknown as LedgerCreditMemo[];
    if (stored.length === 0) return [];
    const all = await readRelated(
      login,
      { object: 'ARPYMTDETAIL', key: 'ADJUSTMENTKEY' },
      stored.map((memo) => memo.providerId),
    );
    return stored.map((memo) => ({
      ...memo,
      applications: sageApplications(all.get(memo.providerId) ?? [], 'ADJUSTMENTAMOUNT'),
    }));
  };

  return {
    fetchPage: async (request): Promise<FetchedPage> => {
      let cursor: SageCursor = request.cursor
        ? (JSON.parse(request.cursor) as SageCursor)
        : { step: 0, resultId: null, read: 0, total: 0 };
      const step = steps[cursor.step]!;
      const login = await deps.loginOf(request.sellerId);
      const pageSize = Math.max(1, Math.min(request.pageSize, SAGE_MAX_PAGE));
      const query = () =>
        readByQuery(deps.sender, login, {
          object: step.object,
          query: request.since ? `WHENMODIFIED >= '${sageDateTime(request.since)}'` : '',
          pageSize,
        });
      let data: SageData | null;
      try {
        data =
          cursor.resultId === null
            ? await query()
            : await readMore(deps.sender, login, cursor.resultId).catch((error: unknown) => {
                // A result set Sage no longer holds (it expires) is read again from the step's start.
                if (error instanceof SageError && error.errorNo === EXPIRED_RESULT) return null;
                throw error;
              });
        if (data === null || (cursor.resultId !== null && skippedABatch(cursor, data))) {
          // readMore moves Sage's result set on by itself: an attempt that called it and died before its
          // page was stored (a killed worker) took a batch nobody wrote. Read the step again from its
          // start; pages are upserts by id, so what was stored already is stored once.
          defaultWarn(
            data === null
              ? `${NAME}: the ${step.object} result set expired; reading ${step.object} again from the start.`
              : `${NAME}: a batch of ${step.object} was read by an attempt that did not finish; reading ${step.object} again from the start.`,
          );
          cursor = restartStep(cursor);
          data = await query();
        }
      } catch (error) {
        throw asFailure(error);
      }
      const page = emptyLedgerPage();
      if (request.cursor === null) page.products.push(adjustmentsProduct(request.sellerId));
      let related = new Map<string, XmlElement[]>();
      try {
        const keys = data.records.map((r) => textAt(r, 'RECORDNO')).filter((k): k is string => !!k);
        if (step.related && keys.length > 0) related = await readRelated(login, step.related, keys);
        if (step.object === 'ARPYMT' && request.since !== null)
          page.creditMemos.push(
            ...(await creditsApplied({ sellerId: request.sellerId, login }, [...related.values()].flat())),
          );
      } catch (error) {
        throw asFailure(error);
      }
      const products = new Set<string>();
      for (const record of data.records) {
        const mine = related.get(textAt(record, 'RECORDNO') ?? '') ?? [];
        const row = mapOrSkip(log, { platform: NAME, entity: step.object, id: sageRecordId(record) }, () =>
          step.map(request.sellerId, record, mine),
        );
        if (row === null) continue;
        (page[step.entity] as unknown[]).push(row);
        if (step.object === 'ARINVOICE')
          for (const item of mine) {
            const product = mapSageLineItem(request.sellerId, item);
            if (product && !products.has(product.providerId)) {
              products.add(product.providerId);
              page.products.push(product);
            }
          }
      }
      const total = cursor.resultId === null ? cursor.total + data.totalCount : cursor.total;
      const read = cursor.read + data.records.length;
      const more = data.numRemaining > 0 && data.resultId !== null;
      const stepRead = (cursor.resultId === null ? 0 : (cursor.stepRead ?? 0)) + data.records.length;
      const next: SageCursor | null = more
        ? { step: cursor.step, resultId: data.resultId, read, total, stepRead, remaining: data.numRemaining }
        : cursor.step + 1 < steps.length
          ? { step: cursor.step + 1, resultId: null, read, total }
          : null;
      return {
        page,
        nextCursor: next === null ? null : JSON.stringify(next),
        done: next === null ? Math.max(read, total) : read,
        total: Math.max(total, read),
      };
    },
  };
};

/** The Sage Intacct connector as the sync worker builds it. */
export const createSageIntacctConnector = (deps: {
  db: Db;
  vault: CredentialVault;
  config: Config;
  writeSide: CommandHandlerDeps;
  fetch?: typeof fetch;
}): LedgerConnector => {
  const { config } = deps;
  return createSageConnector({
    db: deps.db,
    sender: {
      url: config.SAGE_INTACCT_API_URL,
      senderId: config.SAGE_SENDER_ID ?? '',
      senderPassword: config.SAGE_SENDER_PASSWORD ?? '',
      fetch: deps.fetch,
    },
    loginOf: async (sellerId) => {
      const ref = await latestSellerFact(deps.writeSide, sellerId, 'credentialsRef');
      const stored = ref ? await deps.vault.read(ref) : null;
      if (stored?.kind !== 'sage' || !stored.secret.companyId)
        throw userFailure(
          `We hold no ${NAME} login for this company. Connect it again on the Platforms page.`,
          failureTypes.noCredentials,
        );
      return {
        companyId: stored.secret.companyId,
        userId: stored.secret.userId ?? '',
        password: stored.secret.password ?? '',
      };
    },
  });
};
