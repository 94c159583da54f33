import { randomUUID } from 'node:crypto';
import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../../commands/command-handler';
import { decodeEvents } from '../../../commands/event-codec';
import type { CredentialVault } from '../../../commands/credential-vault';
import { allocateId } from '../../../commands/id-allocator';
import { runWithRequestContext, systemActorId } from '../../../commands/request-context';
import type { SellerSyncMode } from '../../../contracts/events/seller';
import { emptyLedgerPage, type LedgerPage } from '../../../contracts/ledger';
import { jobStream, sellerStream } from '../../../contracts/stream-ids';
import { sellerDecider } from '../../../domain/seller/seller-decider';
import { writeQbdLog } from '../../../projections/qbd/qbd-logs';
import type { Config } from '../../../contracts/config';
import { AppError } from '../../../contracts/errors';
import { metricsJobWorkflowId } from '../../metrics/metrics-jobs';
import { jobDecider } from '../../../domain/job/job-decider';
import { ensureLedgerIndexes } from '../../ledger/ledger-collections';
import { ledgerEpochOf, recordLedgerEpoch } from '../../ledger/ledger-epochs';
import { commitLedgerPage, deleteSellerLedger, prepareLedgerPage } from '../../ledger/write-ledger-page';
import type { SyncPlan } from '../../sync/sync-input';
import { readState, runSystemCommand, type SystemCommandContext } from '../../sync/system-commands';
import { throttledProgress } from '../../sync/throttled-progress';
import {
  adjustmentsProduct,
  defaultMalformedLog,
  mapOrSkip,
  recordDeletions,
  type MalformedLog,
} from '../shared/ledger-mapping';
import {
  deletedOf,
  mapQbdCreditMemo,
  mapQbdCustomer,
  mapQbdInvoice,
  mapQbdItem,
  mapQbdJournalEntry,
  mapQbdPayment,
  mapQbdSalesReceipt,
  qbdRecordId,
  salesReceiptPaymentId,
} from './qbd-mapping';
import { QB_NO_MATCH, qbdSteps, qbxmlRequest, readQbxmlResponse, type QbdStep } from './qbxml';
import { rebalanceJournalInvoices, storedJournalRows, withJournalBalances } from './qbd-journal-entries';
import { textAt, type XmlElement } from './xml';

/**
 * The QuickBooks Desktop side of a Web Connector session (ADR 44). The Web Connector calls
 * in; each call is answered from the session's document in MongoDB (keyed by its ticket), so any
 * gateway instance answers any call and a restart loses nothing. authenticate checks the one-time
 * password of POST /api/qbd/config against its hash in the credential vault and starts a sync job
 * the way the sync workflow does (beginSellerSync: job, RequestSellerSync, StartSellerSync, window and
 * ledger epoch); each sendRequestXML hands out the current step's query, each receiveResponseXML
 * writes the answer as one ledger page (the sync's own prepareLedgerPage/commitLedgerPage), records
 * job progress and moves the iterator; the last answer records the CollectionDate and completes the
 * job. Every call leaves a log entry (projections/qbd/qbd-logs.ts).
 */

export const QBD_SESSIONS_COLLECTION = 'qbd_sessions';

let sessionsIndexed = new WeakSet<Db>();
/** A seller's sessions, newest first (the logs route, the sweep, a capture): one index serves them all. */
export const ensureQbdSessionIndexes = async (db: Db): Promise<void> => {
  if (sessionsIndexed.has(db)) return;
  await db.collection(QBD_SESSIONS_COLLECTION).createIndex({ sellerId: 1, createdAt: -1 });
  sessionsIndexed.add(db);
};
/** For tests that drop databases between runs. */
export const forgetQbdSessionIndexes = () => {
  sessionsIndexed = new WeakSet();
};
/**
 * Resets (admin Repopulate, "Reset" for QBD) waiting for the next Web Connector run: the sync
 * workflow emptied the ledger into a new epoch, and the next session fetches everything into it.
 */
export const QBD_RESETS_COLLECTION = 'qbd_resets';
const PROCESS = 'qbd-web-connector';
const NAME = 'QuickBooks Desktop';
/** Records per iterator page: QuickBooks answers a page in about a second at this size. */
export const QBD_MAX_RETURNED = 100;
/** A session silent this long is abandoned: the next authenticate fails its sync and starts anew. */
export const QBD_SESSION_IDLE_MS = 30 * 60_000;
export const QBD_SERVER_VERSION = 'Ledgerwise QuickBooks Desktop connector 1.0';

export type QbdSessionDoc = {
  _id: string;
  sellerId: number;
  tenantId: number;
  jobId: number;
  workflowId: string;
  mode: SellerSyncMode;
  plan: SyncPlan;
  step: number;
  iteratorId: string | null;
  requestId: number;
  records: number;
  skipped: number;
  percent: number;
  status: 'open' | 'done' | 'failed';
  lastError: string | null;
  clientVersion: string | null;
  companyFile: string | null;
  createdAt: Date;
  lastActiveAt: Date;
  /** The requestID of the last answer written, so a repeated delivery is not applied twice. */
  answered?: number | null;
  /** The metrics job the finished run requested. */
  metricsJobId?: number;
  /** The Accounts Receivable accounts' ListIDs (the run's first answer): which journal lines are receivables. */
  receivables?: string[];
};

export type QbdSessionDeps = {
  db: Db;
  writeSide: CommandHandlerDeps;
  vault: CredentialVault;
  now: () => Date;
  /** The gateway's scrypt check of a password against its stored hash. */
  verifyPassword: (password: string, hash: string) => Promise<boolean>;
  /**
   * The task-queue prefix of the metrics job a finished run requests (the worker's metrics-job
   * reactor starts it, as for the admin's S button); without it no metrics are requested.
   */
  metricsPrefix?: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>;
  maxReturned?: number;
  log?: MalformedLog;
};

/** The seller a Web Connector user name belongs to: the .qwc file names `lw-qbd-<sellerId>`. */
export const sellerIdOfUserName = (userName: string): number | null => {
  const match = /^lw-qbd-([1-9]\d{0,14})$/.exec(userName.trim());
  return match ? Number(match[1]) : null;
};

/** The latest value of a connection fact (credentialsRef, companyFilePath) in the seller's events. */
export const latestSellerFact = async (
  writeSide: CommandHandlerDeps,
  sellerId: number,
  key: 'credentialsRef' | 'companyFilePath',
): Promise<string | null> => {
  const events = await decodeEvents(writeSide, await writeSide.store.readStream(sellerStream(sellerId)));
  for (const event of [...events].reverse()) {
    const data = event.data as Record<string, unknown> | null;
    if (data && key in data) return typeof data[key] === 'string' ? data[key] : null;
  }
  return null;
};

type Mapper = (sellerId: number, record: XmlElement) => unknown;
const mappers: Record<
  Exclude<QbdStep, 'TxnDeleted' | 'SalesReceipt' | 'JournalEntry' | 'Account' | 'Class' | 'Estimate'>,
  { entity: keyof LedgerPage; map: Mapper }
> = {
  Customer: { entity: 'customers', map: mapQbdCustomer },
  Item: { entity: 'products', map: mapQbdItem },
  Invoice: { entity: 'invoices', map: mapQbdInvoice },
  CreditMemo: { entity: 'creditMemos', map: mapQbdCreditMemo },
  ReceivePayment: { entity: 'payments', map: mapQbdPayment },
};
const deletedEntity = { Invoice: 'invoices', CreditMemo: 'creditMemos', ReceivePayment: 'payments' } as const;

/** The ledger rows a deleted transaction stands for (a sales receipt is an invoice and a payment). */
const deletedRows = (type: string, providerId: string) =>
  type === 'SalesReceipt'
    ? [
        { entity: 'invoices' as const, providerId },
        { entity: 'payments' as const, providerId: salesReceiptPaymentId(providerId) },
      ]
    : type in deletedEntity
      ? [{ entity: deletedEntity[type as keyof typeof deletedEntity], providerId }]
      : [];

/**
 * The qbXML records of one answer as a ledger page; malformed records are logged and counted.
 * `receivables` are the Accounts Receivable ListIDs, for journal entries; an Account answer names
 * them (`accounts`). Classes and estimates are counted only.
 */
export const qbdPageOf = async (
  context: { db: Db; sellerId: number; log: MalformedLog; receivables?: ReadonlySet<string> },
  step: QbdStep,
  records: XmlElement[],
): Promise<{ page: LedgerPage; mapped: number; skipped: number; accounts?: string[] }> => {
  const page = emptyLedgerPage();
  const where = { db: context.db, sellerId: context.sellerId };
  let mapped = 0;
  let skipped = 0;
  if (step === 'Account') {
    const accounts = records.map((r) => textAt(r, 'ListID')).filter((id): id is string => !!id);
    return { page, mapped: accounts.length, skipped: records.length - accounts.length, accounts };
  }
  // Classes and estimates (countedSteps) are no receivables: counted for the log viewer only.
  if (step === 'Class' || step === 'Estimate') return { page, mapped: records.length, skipped: 0 };
  if (step === 'TxnDeleted') {
    const deleted = records.flatMap((record) => {
      const one = mapOrSkip(context.log, { platform: NAME, entity: step, id: qbdRecordId(record) }, () =>
        deletedOf(record),
      );
      if (one === null) skipped += 1;
      return one ? [one] : [];
    });
    const rows = [
      ...deleted.flatMap((d) => deletedRows(d.type, d.providerId)),
      ...(await storedJournalRows(
        where,
        deleted.filter((d) => d.type === 'JournalEntry').map((d) => d.providerId),
      )),
    ];
    await recordDeletions(where, rows, page);
    return { page, mapped: rows.length, skipped };
  }
  if (step === 'JournalEntry') {
    const receivables = context.receivables ?? new Set<string>();
    const read: string[] = [];
    for (const record of records) {
      const rows = mapOrSkip(context.log, { platform: NAME, entity: step, id: qbdRecordId(record) }, () =>
        mapQbdJournalEntry(context.sellerId, record, receivables),
      );
      if (rows === null) skipped += 1;
      else {
        read.push(textAt(record, 'TxnID')!);
        page.invoices.push(...rows.invoices);
        page.creditMemos.push(...rows.creditMemos);
        mapped += 1;
      }
    }
    page.invoices = await withJournalBalances(where, page.invoices, []);
    // An entry changed so that it no longer charges or credits a customer: that row goes.
    const current = {
      invoices: new Set(page.invoices.map((r) => r.providerId)),
      creditMemos: new Set(page.creditMemos.map((r) => r.providerId)),
    };
    const stale = (await storedJournalRows(where, read)).filter(
      (row) => !current[row.entity].has(row.providerId),
    );
    await recordDeletions(where, stale, page);
    return { page, mapped, skipped };
  }
  if (step === 'SalesReceipt') {
    for (const record of records) {
      const both = mapOrSkip(context.log, { platform: NAME, entity: step, id: qbdRecordId(record) }, () =>
        mapQbdSalesReceipt(context.sellerId, record),
      );
      if (both === null) skipped += 1;
      else {
        page.invoices.push(both.invoice);
        page.payments.push(both.payment);
        mapped += 1;
      }
    }
    return { page, mapped, skipped };
  }
  const { entity, map } = mappers[step];
  for (const record of records) {
    const row = mapOrSkip(context.log, { platform: NAME, entity: step, id: qbdRecordId(record) }, () =>
      map(context.sellerId, record),
    );
    if (row === null) skipped += 1;
    else {
      (page[entity] as unknown[]).push(row);
      mapped += 1;
    }
  }
  // Payments applied to journal entries: those entries' invoices owe less.
  if (step === 'ReceivePayment') await rebalanceJournalInvoices(where, page);
  return { page, mapped, skipped };
};

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const createQbdSessions = (deps: QbdSessionDeps) => {
  const sessions = deps.db.collection<QbdSessionDoc>(QBD_SESSIONS_COLLECTION);
  const malformed = deps.log ?? defaultMalformedLog;
  const maxReturned = deps.maxReturned ?? QBD_MAX_RETURNED;

  const log = (
    entry: {
      sellerId: number;
      tenantId: number | null;
      session: string;
      endpoint: string;
      status: string;
    } & {
      request?: string | null;
      records?: number;
    },
  ) =>
    writeQbdLog(deps.db, {
      request: null,
      records: 0,
      ...entry,
      at: deps.now(),
    });

  const commandContext = (session: Pick<QbdSessionDoc, 'workflowId' | 'tenantId'>): SystemCommandContext => ({
    writeSide: deps.writeSide,
    workflowId: session.workflowId,
    tenantId: session.tenantId,
    process: PROCESS,
  });

  const find = (ticket: string) => sessions.findOne({ _id: ticket });

  const fail = async (session: QbdSessionDoc, reason: string) => {
    await sessions.updateOne(
      { _id: session._id },
      { $set: { status: 'failed', lastError: reason, lastActiveAt: deps.now() } },
    );
    await runSystemCommand(commandContext(session), jobDecider, {
      streamId: jobStream(session.jobId),
      step: 'fail-job',
      command: { type: 'FailJob', now: deps.now(), data: { reason } },
    }).catch(() => undefined);
  };

  /** The run is complete: the CollectionDate is the window's end, the job completes, a reset is done. */
  const finish = async (session: QbdSessionDoc) => {
    const context = commandContext(session);
    const now = deps.now();
    await runSystemCommand(context, sellerDecider, {
      streamId: sellerStream(session.sellerId),
      step: 'collection-date',
      command: {
        type: 'RecordSellerCollectionDate',
        now,
        data: { collectionDate: new Date(session.plan.until) },
      },
    });
    await runSystemCommand(context, jobDecider, {
      streamId: jobStream(session.jobId),
      step: 'complete-job',
      command: { type: 'CompleteJob', now, data: { result: { collectionDate: session.plan.until } } },
    });
    if (deps.metricsPrefix) {
      const metricsJobId = await runWithRequestContext(
        { actor: systemActorId(PROCESS), tenantId: session.tenantId, requestId: session.workflowId },
        () =>
          allocateId(deps.writeSide.store, {
            category: 'job',
            commandId: `${session.workflowId}:metrics-job`,
            now,
          }),
      );
      await runSystemCommand(context, jobDecider, {
        streamId: jobStream(metricsJobId),
        step: 'metrics-job',
        command: {
          type: 'CreateJob',
          now,
          data: {
            jobId: metricsJobId,
            kind: 'metrics',
            tenantId: session.tenantId,
            sellerId: session.sellerId,
            parameters: { sellerId: session.sellerId, onlyMissing: false, type: 'sellers' },
            workflowId: metricsJobWorkflowId(deps.metricsPrefix, {
              jobType: 'sellers',
              sellerId: session.sellerId,
              jobId: metricsJobId,
            }),
          },
        },
      });
      await sessions.updateOne({ _id: session._id }, { $set: { metricsJobId } });
    }
    await deps.db
      .collection(QBD_RESETS_COLLECTION)
      .deleteOne({ _id: session.sellerId as never, epoch: session.plan.epoch });
  };

  /** Ends an earlier session of the seller that went silent, so its sync no longer blocks. */
  const endAbandoned = async (sellerId: number) => {
    await ensureQbdSessionIndexes(deps.db);
    const idleSince = new Date(deps.now().getTime() - QBD_SESSION_IDLE_MS);
    const stale = await sessions
      .find({ sellerId, status: 'open', lastActiveAt: { $lt: idleSince } })
      .toArray();
    for (const session of stale)
      await fail(session, 'The QuickBooks Web Connector stopped answering; the next run starts again.');
  };

  /**
   * Starts a session: a sync job (populate when the seller never synced, else sync since its
   * CollectionDate) and the document the later calls read.
   */
  const start = async (input: {
    sellerId: number;
    tenantId: number;
    companyFile: string | null;
    collectionDate?: Date | null;
    reset?: boolean;
  }): Promise<QbdSessionDoc> => {
    const ticket = randomUUID();
    const now = deps.now();
    const workflowId = `qbd-session-${ticket}`;
    const jobId = await runWithRequestContext(
      { actor: systemActorId(PROCESS), tenantId: input.tenantId, requestId: workflowId },
      () => allocateId(deps.writeSide.store, { category: 'job', commandId: `${workflowId}:job`, now }),
    );
    const seller = await readState(deps.writeSide, sellerDecider, sellerStream(input.sellerId));
    if (seller.status !== 'known') throw new Error(`seller ${input.sellerId} is not known`);
    if (seller.runningSync)
      throw new AppError('conflict', 'A Reset is running for this seller; the Web Connector syncs after it.');
    await ensureLedgerIndexes(deps.db);
    const pendingReset = await deps.db
      .collection<{ _id: number; epoch: number }>(QBD_RESETS_COLLECTION)
      .findOne({ _id: input.sellerId });
    let mode: SellerSyncMode;
    let plan: SyncPlan;
    const until = now.toISOString();
    if (input.reset) {
      mode = 'repopulate';
      await deleteSellerLedger(deps.db, input.sellerId);
      await recordLedgerEpoch(deps.db, { sellerId: input.sellerId, epoch: jobId });
      plan = { since: null, until, epoch: jobId };
    } else if (seller.collectionDate === null || pendingReset) {
      mode = seller.collectionDate === null ? 'populate' : 'repopulate';
      const epoch = pendingReset?.epoch ?? jobId;
      if (!pendingReset) await recordLedgerEpoch(deps.db, { sellerId: input.sellerId, epoch });
      plan = { since: null, until, epoch };
    } else {
      mode = 'sync';
      const since = input.collectionDate === undefined ? seller.collectionDate : input.collectionDate;
      plan = {
        since: since === null ? null : new Date(since).toISOString(),
        until,
        epoch: await ledgerEpochOf(deps.db, input.sellerId),
      };
    }
    const session: QbdSessionDoc = {
      _id: ticket,
      sellerId: input.sellerId,
      tenantId: input.tenantId,
      jobId,
      workflowId,
      mode,
      plan,
      step: 0,
      iteratorId: null,
      requestId: 0,
      records: 0,
      skipped: 0,
      percent: 0,
      status: 'open',
      lastError: null,
      clientVersion: null,
      companyFile: input.companyFile,
      createdAt: now,
      lastActiveAt: now,
    };
    const context = commandContext(session);
    await runSystemCommand(context, jobDecider, {
      streamId: jobStream(jobId),
      step: 'create-job',
      command: {
        type: 'CreateJob',
        now,
        data: {
          jobId,
          kind: 'sync',
          tenantId: input.tenantId,
          sellerId: input.sellerId,
          parameters: { mode, onlyFetch: false },
          workflowId,
        },
      },
    });
    await runSystemCommand(context, jobDecider, {
      streamId: jobStream(jobId),
      step: 'start-job',
      command: { type: 'StartJob', now, data: {} },
    });
    await sessions.insertOne(session);
    return session;
  };

  /** The steps of this session: a populate has nothing deleted to ask for. */
  const stepsOf = (session: QbdSessionDoc): readonly QbdStep[] =>
    session.plan.since === null ? qbdSteps.filter((s) => s !== 'TxnDeleted') : qbdSteps;

  /**
   * Writes one qbXML answer into the ledger and moves the session on. Answers the percent done;
   * 100 when the last step's last page is in.
   */
  const apply = async (
    session: QbdSessionDoc,
    response: string,
  ): Promise<{ percent: number; records: number; skipped: number; step: QbdStep }> => {
    const steps = stepsOf(session);
    const expected = steps[session.step];
    const answer = readQbxmlResponse(response);
    // The same answer delivered again (a retried call): already written, nothing moves.
    if (answer.requestId !== null && Number(answer.requestId) === session.answered)
      return { percent: session.percent, records: 0, skipped: 0, step: answer.step };
    if (answer.step !== expected)
      throw new Error(`QuickBooks answered ${answer.step}QueryRq while ${expected ?? 'nothing'} was asked`);
    const severe = answer.statusSeverity === 'Error' && answer.statusCode !== QB_NO_MATCH;
    if (severe)
      throw new Error(
        `QuickBooks refused the ${answer.step} query: ${answer.statusMessage} (${answer.statusCode})`,
      );
    const { page, mapped, skipped, accounts } = await qbdPageOf(
      {
        db: deps.db,
        sellerId: session.sellerId,
        log: malformed,
        receivables: new Set(session.receivables ?? []),
      },
      answer.step,
      answer.records,
    );
    if (session.step === 0 && session.iteratorId === null)
      page.products.push(adjustmentsProduct(session.sellerId));
    const context = {
      db: deps.db,
      tenantId: session.tenantId,
      epoch: session.plan.epoch,
      now: deps.now(),
      compare: true,
    };
    await commitLedgerPage(context, await prepareLedgerPage(context, page));
    const stepDone = answer.remaining === 0 || answer.iteratorId === null;
    const nextStep = stepDone ? session.step + 1 : session.step;
    const finished = nextStep >= steps.length;
    // Within a step, the share already read of what the iterator has left.
    const inStep = stepDone ? 0 : answer.records.length / (answer.records.length + answer.remaining);
    const percent = finished ? 100 : Math.min(99, Math.floor(((nextStep + inStep) / steps.length) * 100));
    const records = session.records + mapped;
    await sessions.updateOne(
      { _id: session._id },
      {
        $set: {
          step: nextStep,
          iteratorId: stepDone ? null : answer.iteratorId,
          records,
          skipped: session.skipped + skipped,
          percent,
          status: finished ? 'done' : 'open',
          answered: answer.requestId === null ? null : Number(answer.requestId),
          lastActiveAt: deps.now(),
          ...(accounts ? { receivables: accounts } : {}),
        },
      },
    );
    await throttledProgress(commandContext(session), { jobId: session.jobId, now: deps.now }).record({
      stage: 'fetching',
      done: percent,
      total: 100,
    });
    if (finished) await finish(session);
    return { percent, records: mapped, skipped, step: answer.step };
  };

  return {
    serverVersion: () => QBD_SERVER_VERSION,

    /** Any Web Connector version is accepted: '' means go on. */
    clientVersion: (_version: string) => '',

    /**
     * [ticket, company file] on success ('' is the company file open in QuickBooks); ['', 'nvu'] for
     * a wrong user name or password; [ticket, 'none'] when there is nothing to do now.
     */
    async authenticate(userName: string, password: string): Promise<[string, string]> {
      const sellerId = sellerIdOfUserName(userName);
      const refuse = async (reason: string): Promise<[string, string]> => {
        if (sellerId !== null)
          await log({
            sellerId,
            tenantId: null,
            session: '',
            endpoint: 'authenticate',
            status: `FAIL: ${reason}`,
          });
        return ['', 'nvu'];
      };
      if (sellerId === null) return ['', 'nvu'];
      const seller = await readState(deps.writeSide, sellerDecider, sellerStream(sellerId));
      if (seller.status !== 'known' || seller.provider !== 'QBD' || !seller.connected)
        return refuse('no connected QuickBooks Desktop company for this user name');
      const ref = await latestSellerFact(deps.writeSide, sellerId, 'credentialsRef');
      const stored = ref ? await deps.vault.read(ref) : null;
      const hash = stored?.kind === 'qbd_web_connector' ? stored.secret.passwordHash : undefined;
      if (
        !hash ||
        stored?.secret.userName !== userName.trim() ||
        !(await deps.verifyPassword(password, hash))
      )
        return refuse('wrong user name or password');
      const base = { sellerId, tenantId: seller.tenantId, endpoint: 'authenticate' };
      if (!seller.active) {
        await log({ ...base, session: '', status: 'OK: the seller is inactive, nothing to do' });
        return [randomUUID(), 'none'];
      }
      await endAbandoned(sellerId);
      let session: QbdSessionDoc;
      try {
        session = await start({
          sellerId,
          tenantId: seller.tenantId,
          companyFile: await latestSellerFact(deps.writeSide, sellerId, 'companyFilePath'),
        });
      } catch (error) {
        // A sync already running (an admin's, or another Web Connector run): come back later.
        await log({ ...base, session: '', status: `FAIL: ${messageOf(error)}` });
        return [randomUUID(), 'none'];
      }
      await log({ ...base, session: session._id, status: 'OK' });
      return [session._id, session.companyFile ?? ''];
    },

    /** The next query, or '' when the session has nothing more to ask. */
    async sendRequestXML(ticket: string, meta: { clientVersion?: string; companyFile?: string } = {}) {
      const session = await find(ticket);
      if (!session || session.status !== 'open') return '';
      const step = stepsOf(session)[session.step];
      if (!step) return '';
      const requestId = session.requestId + 1;
      await sessions.updateOne(
        { _id: ticket },
        {
          $set: {
            requestId,
            lastActiveAt: deps.now(),
            ...(meta.companyFile ? { companyFile: meta.companyFile } : {}),
            ...(meta.clientVersion ? { clientVersion: meta.clientVersion } : {}),
          },
        },
      );
      const since = session.plan.since === null ? null : new Date(session.plan.since);
      const xml = qbxmlRequest({
        step,
        requestId,
        iteratorId: session.iteratorId,
        maxReturned,
        since,
        until: new Date(session.plan.until),
      });
      await log({
        sellerId: session.sellerId,
        tenantId: session.tenantId,
        session: ticket,
        endpoint: 'sendRequestXML',
        status: 'OK',
        request: `${step}QueryRq`,
      });
      return xml;
    },

    /** Percent done (100 ends the run), or -1 after a failure (the Web Connector then asks getLastError). */
    async receiveResponseXML(
      ticket: string,
      { response, hresult, message }: { response: string; hresult: string; message: string },
    ) {
      const session = await find(ticket);
      if (!session || session.status !== 'open') return -1;
      const entry = {
        sellerId: session.sellerId,
        tenantId: session.tenantId,
        session: ticket,
        endpoint: 'receiveResponseXML',
      };
      if (hresult.trim() !== '') {
        const reason = `QuickBooks could not run the request: ${message || hresult}`;
        await log({ ...entry, status: `FAIL: ${reason}` });
        await fail(session, reason);
        return -1;
      }
      try {
        const applied = await apply(session, response);
        await log({
          ...entry,
          // Malformed records were logged with their ids; the entry says how many a page skipped.
          status: applied.skipped > 0 ? `OK: ${applied.skipped} malformed records skipped` : 'OK',
          request: `${applied.step}QueryRs`,
          records: applied.records,
        });
        return applied.percent;
      } catch (error) {
        const reason = messageOf(error);
        await log({ ...entry, status: `FAIL: ${reason}` });
        await fail(session, reason);
        return -1;
      }
    },

    async getLastError(ticket: string) {
      const session = await find(ticket);
      return session?.lastError ?? (session ? '' : 'Unknown session: authenticate again.');
    },

    /** The Web Connector could not reach QuickBooks: the sync fails with its words. */
    async connectionError(ticket: string, hresult: string, message: string) {
      const session = await find(ticket);
      if (session) {
        const reason = `The Web Connector could not open QuickBooks: ${message || hresult}`;
        await log({
          sellerId: session.sellerId,
          tenantId: session.tenantId,
          session: ticket,
          endpoint: 'connectionError',
          status: `FAIL: ${reason}`,
        });
        if (session.status === 'open') await fail(session, reason);
      }
      return 'done';
    },

    /** Ends the run; a session closed before its last step fails its sync, to be resumed by the next run. */
    async closeConnection(ticket: string) {
      const session = await find(ticket);
      if (!session) return 'OK';
      const entry = {
        sellerId: session.sellerId,
        tenantId: session.tenantId,
        session: ticket,
        endpoint: 'closeConnection',
      };
      if (session.status === 'open') {
        await fail(session, 'The Web Connector closed the session before the sync finished.');
        await log({ ...entry, status: 'FAIL: closed before the sync finished' });
        return 'The sync stopped early; it starts again on the next run.';
      }
      await log({ ...entry, status: 'OK', records: session.records });
      return session.status === 'done' ? `Synced ${session.records} records.` : 'OK';
    },

    /** Admin: a session started by hand (admin.md QBD session form). */
    start,

    /**
     * Admin: replays a captured qbXML response into the seller's ledger, outside any session (the
     * capture form). Answers the records written.
     */
    async capture(input: { sellerId: number; tenantId: number; xml: string }) {
      const answer = readQbxmlResponse(input.xml);
      // Journal entries need the receivable accounts: the ones the seller's latest run read.
      await ensureQbdSessionIndexes(deps.db);
      const latest = await sessions.findOne(
        { sellerId: input.sellerId, receivables: { $exists: true } },
        { sort: { createdAt: -1 } },
      );
      const { page, mapped, skipped } = await qbdPageOf(
        {
          db: deps.db,
          sellerId: input.sellerId,
          log: malformed,
          receivables: new Set(latest?.receivables ?? []),
        },
        answer.step,
        answer.records,
      );
      page.products.push(adjustmentsProduct(input.sellerId));
      const context = {
        db: deps.db,
        tenantId: input.tenantId,
        epoch: await ledgerEpochOf(deps.db, input.sellerId),
        now: deps.now(),
        compare: true,
      };
      const { written } = await commitLedgerPage(context, await prepareLedgerPage(context, page));
      await log({
        sellerId: input.sellerId,
        tenantId: input.tenantId,
        session: '',
        endpoint: 'capture',
        status: 'OK',
        request: `${answer.step}QueryRs`,
        records: mapped,
      });
      return { step: answer.step, mapped, skipped, written };
    },

    find,
  };
};

export type QbdSessions = ReturnType<typeof createQbdSessions>;
