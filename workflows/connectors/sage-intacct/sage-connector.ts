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
  mapSagePayment,
  sageDateTime,
  sageRecordId,
} from './sage-mapping';

/**
 * Sage Intacct behind the LedgerConnector seam (ADR 44, Sage section). One step per object:
 * CUSTOMER, ARINVOICE, ARADJUSTMENT, ARPYMT. A step starts with readByQuery (everything on a
 * populate, `WHENMODIFIED >= '<since>'` on a sync) and goes on with readMore on its resultId until
 * numremaining is 0; the cursor keeps the step and the resultId, so a retried activity resumes with
 * the same readMore. Deletions are not read (Sage's XML API lists no deleted records): Repopulate
 * finds them.
 */

const NAME = 'Sage Intacct';
export const SAGE_MAX_PAGE = 1000;

const steps = [
  { object: 'CUSTOMER', entity: 'customers', map: mapSageCustomer },
  { object: 'ARINVOICE', entity: 'invoices', map: mapSageInvoice },
  { object: 'ARADJUSTMENT', entity: 'creditMemos', map: mapSageAdjustment },
  { object: 'ARPYMT', entity: 'payments', map: mapSagePayment },
] as const satisfies readonly {
  object: string;
  entity: keyof LedgerPage;
  map: (sellerId: number, record: XmlElement) => unknown;
}[];

type SageCursor = { step: number; resultId: string | null; read: number; total: number };

export type SageConnectorDeps = {
  sender: SageSender;
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
  return {
    fetchPage: async (request): Promise<FetchedPage> => {
      const cursor: SageCursor = request.cursor
        ? (JSON.parse(request.cursor) as SageCursor)
        : { step: 0, resultId: null, read: 0, total: 0 };
      const step = steps[cursor.step]!;
      const login = await deps.loginOf(request.sellerId);
      const pageSize = Math.max(1, Math.min(request.pageSize, SAGE_MAX_PAGE));
      let data: SageData;
      try {
        data =
          cursor.resultId === null
            ? await readByQuery(deps.sender, login, {
                object: step.object,
                query: request.since ? `WHENMODIFIED >= '${sageDateTime(request.since)}'` : '',
                pageSize,
              })
            : await readMore(deps.sender, login, cursor.resultId);
      } catch (error) {
        throw asFailure(error);
      }
      const page = emptyLedgerPage();
      if (request.cursor === null) page.products.push(adjustmentsProduct(request.sellerId));
      for (const record of data.records) {
        const row = mapOrSkip(log, { platform: NAME, entity: step.object, id: sageRecordId(record) }, () =>
          step.map(request.sellerId, record),
        );
        if (row !== null) (page[step.entity] as unknown[]).push(row);
      }
      const total = cursor.resultId === null ? cursor.total + data.totalCount : cursor.total;
      const read = cursor.read + data.records.length;
      const more = data.numRemaining > 0 && data.resultId !== null;
      const next: SageCursor | null = more
        ? { step: cursor.step, resultId: data.resultId, read, total }
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
