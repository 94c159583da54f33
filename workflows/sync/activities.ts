import { activityInfo, cancellationSignal, CancelledFailure, heartbeat, log } from '@temporalio/activity';
import type { Db } from 'mongodb';
import type { SellerProvider } from '../../contracts/events/seller';
import type { CommandHandlerDeps } from '../../commands/command-handler';
import { jobDecider } from '../../domain/job/job-decider';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { ensureLedgerIndexes } from '../ledger/ledger-collections';
import {
  commitLedgerPage,
  deleteSellerLedger,
  isMergeable,
  mergePreparedPages,
  prepareLedgerPage,
  type LedgerWriteContext,
  type PreparedLedgerPage,
} from '../ledger/write-ledger-page';
import { ledgerEpochOf, recordLedgerEpoch } from '../ledger/ledger-epochs';
import type { LedgerFeedSender } from '../outbox/ledger-feed-sender';
import { createSyncPageSender, SYNC_SEND_LEASE_MS } from '../outbox/send-sync-pages';
import type { FetchedPage, LedgerConnector } from './ledger-connector';
import type { SyncPlan, SyncStepInput } from './sync-input';
import { readState, runSystemCommand, type SystemCommandContext } from './system-commands';
import { throttledProgress } from './throttled-progress';
import { jobStream, sellerStream } from '../../contracts/stream-ids';

export type SyncDeps = {
  db: Db;
  writeSide: CommandHandlerDeps;
  connectorFor: (provider: SellerProvider) => LedgerConnector;
  now: () => Date;
  /**
   * Kafka for the ledger feed: the sync sends each page it writes itself, its outbox entries being the
   * fallback. Without it the outbox publisher sends everything.
   */
  feed?: LedgerFeedSender;
};

/**
 * A populate writes its pages in groups (mergePreparedPages, docs/adr/0053-sync-writes-pages-in-groups.md):
 * a group is written once it holds this many records or pages, or has waited this long for pages
 * (a slow platform's pages are not held back). A sync that dies loses at most the group in flight,
 * whose records its next attempt writes and sends again (their outbox entries were written first).
 */
export const SYNC_GROUP_RECORDS = 20_000;
export const SYNC_GROUP_PAGES = 16;
export const SYNC_GROUP_MS = 5_000;

/** Whether `promise` settles (either way) within `ms`. */
const settlesWithin = async (promise: Promise<unknown>, ms: number): Promise<boolean> => {
  if (ms <= 0) return false;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
};

/** A page fetched from the platform and serialized, waiting to be written. */
type FetchedAndPrepared = {
  /** The page's place, without its records: a group of pages waiting holds only their rows. */
  fetched: Omit<FetchedPage, 'page'>;
  context: LedgerWriteContext;
  prepared: PreparedLedgerPage;
};

/** What a sync activity keeps in its heartbeat: where the next attempt resumes. */
type PagesCheckpoint = { cursor: string | null; pages: number; records: number; finished: boolean };

const commandContext = (deps: SyncDeps, input: SyncStepInput): SystemCommandContext => ({
  writeSide: deps.writeSide,
  workflowId: input.workflowId,
  tenantId: input.tenantId,
  process: 'sync-seller',
});

export const createSyncActivities = (deps: SyncDeps) => {
  const providerOf = async (sellerId: number) => {
    const seller = await readState(deps.writeSide, sellerDecider, sellerStream(sellerId));
    if (seller.status !== 'known') throw new Error(`seller ${sellerId} is not known`);
    return seller;
  };

  return {
    /**
     * Marks the sync requested and started on the seller and the job (creating the job if the caller
     * did not), and settles the window: a sync fetches what changed since the CollectionDate; populate
     * and repopulate fetch everything into a new ledger epoch, repopulate after deleting the old rows.
     */
    async beginSellerSync(input: SyncStepInput): Promise<SyncPlan> {
      const context = commandContext(deps, input);
      const now = deps.now();
      const job = await readState(deps.writeSide, jobDecider, jobStream(input.jobId));
      if (job.status === 'none')
        await runSystemCommand(context, jobDecider, {
          streamId: jobStream(input.jobId),
          step: 'create-job',
          command: {
            type: 'CreateJob',
            now,
            data: {
              jobId: input.jobId,
              kind: 'sync',
              tenantId: input.tenantId,
              sellerId: input.sellerId,
              parameters: { mode: input.mode, onlyFetch: input.onlyFetch },
              workflowId: input.workflowId,
            },
          },
        });
      const seller = await providerOf(input.sellerId);
      for (const [step, type] of [
        ['request-sync', 'RequestSellerSync'],
        ['start-sync', 'StartSellerSync'],
      ] as const)
        await runSystemCommand(context, sellerDecider, {
          streamId: sellerStream(input.sellerId),
          step,
          command: { type, now, data: { syncId: input.jobId, mode: input.mode } } as never,
        });
      await runSystemCommand(context, jobDecider, {
        streamId: jobStream(input.jobId),
        step: 'start-job',
        command: { type: 'StartJob', now, data: {} },
      });
      await ensureLedgerIndexes(deps.db);
      const until = input.until ?? now.toISOString();
      if (input.mode === 'sync')
        return { since: seller.collectionDate, until, epoch: await ledgerEpochOf(deps.db, input.sellerId) };
      if (input.mode === 'repopulate') await deleteSellerLedger(deps.db, input.sellerId);
      await recordLedgerEpoch(deps.db, { sellerId: input.sellerId, epoch: input.jobId });
      return { since: null, until, epoch: input.jobId };
    },

    /**
     * Pages through the platform into the ledger. The heartbeat carries the cursor of the next page
     * after each page is written, so an attempt after a crash starts there: at worst it rewrites the
     * page in flight, which upserts leave unchanged.
     */
    async syncLedgerPages(input: SyncStepInput & { plan: SyncPlan }): Promise<PagesCheckpoint> {
      const seller = await providerOf(input.sellerId);
      const connector = deps.connectorFor(seller.provider);
      const resumed = activityInfo().heartbeatDetails as PagesCheckpoint | undefined;
      const checkpoint: PagesCheckpoint = resumed ?? { cursor: null, pages: 0, records: 0, finished: false };
      // A crash after the last page but before returning: nothing is left to fetch.
      if (checkpoint.finished) return checkpoint;
      const progress = throttledProgress(commandContext(deps, input), { jobId: input.jobId, now: deps.now });
      const since = input.plan.since === null ? null : new Date(input.plan.since);
      const until = new Date(input.plan.until);
      // A sync compares with the stored rows to skip unchanged ones. A populate resumed after a crash
      // compares until a page none of whose rows were stored: the heartbeat lags the writes (the SDK
      // throttles it), so pages after the checkpoint may be written, but pages are written in order.
      let compare = input.mode === 'sync' || resumed !== undefined;
      const fetchAndPrepare = async (cursor: string | null): Promise<FetchedAndPrepared> => {
        const fetched = await connector.fetchPage({
          sellerId: input.sellerId,
          since,
          until,
          cursor,
          pageSize: input.pageSize,
        });
        const context = {
          db: deps.db,
          tenantId: input.tenantId,
          epoch: input.plan.epoch,
          now: deps.now(),
          compare,
          sendAfter: deps.feed ? new Date(Date.now() + SYNC_SEND_LEASE_MS) : undefined,
        };
        const { page, ...place } = fetched;
        return { fetched: place, context, prepared: await prepareLedgerPage(context, page) };
      };
      const sender =
        deps.feed &&
        createSyncPageSender({
          db: deps.db,
          feed: deps.feed,
          onFailure: (error) => {
            log.warn('Kafka refused a page; the outbox publisher sends the rest of this sync', {
              error: error instanceof Error ? error.message : String(error),
            });
          },
        });
      await sender?.sendLeftovers(input.sellerId);
      // Pages of a populate are written in groups (mergePreparedPages): the group's rows in one commit,
      // then its outbox entries sent, then the checkpoint moved past its last page.
      const group: FetchedAndPrepared[] = [];
      let groupRecords = 0;
      let groupStarted = 0;
      const commit = async (pages: FetchedAndPrepared[]) => {
        const last = pages[pages.length - 1];
        if (!last) return;
        const prepared =
          pages.length === 1 ? last.prepared : mergePreparedPages(pages.map((page) => page.prepared));
        const { written, alreadyStored, entries } = await commitLedgerPage(last.context, prepared);
        if (input.mode !== 'sync' && written > 0 && alreadyStored === 0) compare = false;
        await sender?.sendPage(entries);
        checkpoint.records += written;
        checkpoint.pages += pages.length;
        checkpoint.cursor = last.fetched.nextCursor;
        checkpoint.finished = last.fetched.nextCursor === null;
        heartbeat(checkpoint);
        await progress.record({ stage: 'fetching', done: last.fetched.done, total: last.fetched.total });
      };
      const commitGroup = async () => {
        const pages = group.splice(0, group.length);
        groupRecords = 0;
        await commit(pages);
      };
      let next: Promise<FetchedAndPrepared> | null = fetchAndPrepare(checkpoint.cursor);
      while (next) {
        if (cancellationSignal().aborted) throw new CancelledFailure('the sync was cancelled');
        // A group waits for the platform's next page no longer than the group's time allows, and is
        // written before a page that failed ends this attempt (the retry resumes after the group).
        if (group.length > 0) {
          const settled = await settlesWithin(next, groupStarted + SYNC_GROUP_MS - Date.now());
          const failed =
            settled &&
            (await next.then(
              () => false,
              () => true,
            ));
          if (!settled || failed) await commitGroup();
        }
        const current: FetchedAndPrepared = await next;
        const { fetched, prepared } = current;
        // The next page is fetched, serialized and its outbox entries written while this page's rows
        // are written; it touches no rows.
        next = fetched.nextCursor === null ? null : fetchAndPrepare(fetched.nextCursor);
        next?.catch(() => undefined);
        if (!isMergeable(prepared)) {
          await commitGroup();
          await commit([current]);
          continue;
        }
        if (group.length === 0) groupStarted = Date.now();
        group.push(current);
        groupRecords += prepared.docs.reduce((n, { docs }) => n + docs.length, 0);
        if (
          next === null ||
          groupRecords >= SYNC_GROUP_RECORDS ||
          group.length >= SYNC_GROUP_PAGES ||
          Date.now() - groupStarted >= SYNC_GROUP_MS
        )
          await commitGroup();
        // Still alive: the checkpoint stays at the last page written.
        else heartbeat(checkpoint);
      }
      await sender?.flush();
      return checkpoint;
    },

    /** Records the CollectionDate (the window's end) and ends the seller's running sync. */
    async finishSellerSync(input: SyncStepInput & { collectionDate: string; completeJob: boolean }) {
      const context = commandContext(deps, input);
      const now = deps.now();
      await runSystemCommand(context, sellerDecider, {
        streamId: sellerStream(input.sellerId),
        step: 'complete-sync',
        command: {
          type: 'CompleteSellerSync',
          now,
          data: { syncId: input.jobId, collectionDate: new Date(input.collectionDate) },
        },
      });
      if (input.completeJob)
        await runSystemCommand(context, jobDecider, {
          streamId: jobStream(input.jobId),
          step: 'complete-job',
          command: { type: 'CompleteJob', now, data: { result: { collectionDate: input.collectionDate } } },
        });
    },

    /** A failed sync ends the seller's running sync and the job with the reason, so nothing hangs. */
    async failSellerSync(input: SyncStepInput & { reason: string; syncStarted: boolean }) {
      const context = commandContext(deps, input);
      const now = deps.now();
      const reason = input.reason.trim() || 'The sync failed.';
      const seller = await providerOf(input.sellerId);
      if (seller.runningSync?.syncId === input.jobId)
        await runSystemCommand(context, sellerDecider, {
          streamId: sellerStream(input.sellerId),
          step: 'fail-sync',
          command: { type: 'FailSellerSync', now, data: { syncId: input.jobId, reason } },
        });
      const job = await readState(deps.writeSide, jobDecider, jobStream(input.jobId));
      if (job.status !== 'none')
        await runSystemCommand(context, jobDecider, {
          streamId: jobStream(input.jobId),
          step: 'fail-job',
          command: { type: 'FailJob', now, data: { reason } },
        }).catch(() => undefined);
    },
  };
};

export type SyncActivities = ReturnType<typeof createSyncActivities>;
