import { activityInfo, ApplicationFailure, heartbeat } from '@temporalio/activity';
import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../../../commands/command-handler';
import { decodeEvents, toDomainEvent } from '../../../../commands/event-codec';
import type { CrmObjectType, IntegrationEvent } from '../../../../contracts/events/integration';
import { integrationStream, jobStream } from '../../../../contracts/stream-ids';
import { foldEvents } from '../../../../domain/decider';
import type { IntegrationCommand } from '../../../../domain/integration/decide';
import { integrationDecider } from '../../../../domain/integration/integration-decider';
import { isFinished } from '../../../../domain/job/job';
import { jobDecider } from '../../../../domain/job/job-decider';
import { readState, runSystemCommand, type SystemCommandContext } from '../../../sync/system-commands';
import { throttledProgress } from '../../../sync/throttled-progress';
import type { CrmConnector, CrmCreatedObject, CrmPushKind, CrmPushResult } from '../crm-connector';
import { readMirror } from '../crm-mirror';
import { appliedPushesOf, type AppliedPushes, type RecordedPush } from './applied-pushes';
import { planPushes, type PlannedPush, type SellerPushFacts } from './plan-pushes';
import { loadSellerPushFacts, tenantCurrency } from './push-facts';
import { valueDigest } from './push-keys';

/**
 * The push, purge and unlink activities of the integration jobs (docs/adr/0046-crm-pushes.md). Each
 * decides from the integration's own stream, so what it does twice (a retried attempt, a second job)
 * it does once: pushes are keyed, the connector keeps one CRM object per key, and every batch is
 * recorded under a command id derived from its content.
 */
export type CrmPushJobInput = { integrationId: number; tenantId: number; jobId: number };

export type CrmPushDeps = {
  writeSide: CommandHandlerDeps;
  db: Db;
  now: () => Date;
  connectorFor: (integrationId: number) => Promise<CrmConnector>;
  /**
   * The CRM owner of each company (core's CRM mirror): collection tasks are assigned to them. Without
   * it tasks go unassigned (the CRM's default owner).
   */
  companyOwners?: (
    integrationId: number,
    companyCrmIds: readonly string[],
  ) => Promise<ReadonlyMap<string, string | null>>;
  /**
   * A seller's customers' sales reps (customer id -> name), pushed under crm.PushSalesRep. Without it,
   * the name of the CRM owner the sync resolved for the company (the ledger keeps no sales rep).
   */
  salesReps?: (sellerId: number, customerIds: readonly string[]) => Promise<ReadonlyMap<string, string>>;
  /** Pushes (or removals) per recorded batch; default 100. */
  batchSize?: number;
};

const DEFAULT_BATCH = 100;

/**
 * Events, notes and tasks exist only because Ledgerwise pushed them under its key: one the connector
 * found rather than made (created: false, e.g. an earlier attempt's whose answer was lost) is ours all
 * the same, and a purge must delete it. Companies and contacts a connector found are the customer's.
 */
const alwaysOurs = new Set<CrmPushKind>(['segmentChange', 'overdueInvoice', 'collectionTask']);
const isOurs = (kind: CrmPushKind, result: CrmPushResult) =>
  result.created || (alwaysOurs.has(kind) && result.objectType !== 'property');

/** Deleting the things attached to a company first: some CRMs cascade a company's deletion. */
const removalOrder: Record<CrmObjectType, number> = {
  event: 0,
  task: 1,
  note: 2,
  property: 3,
  contact: 4,
  company: 5,
};

const chunksOf = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** A command id step that is the same only for the same batch: a retried batch is recorded once. */
const batchStep = (prefix: string, jobId: number, ids: readonly string[]) =>
  `${prefix}:${jobId}:${ids.length}:${valueDigest({ ids: ids.join('\n') })}`;

const workflowIdOf = (input: CrmPushJobInput, action: string) => {
  const fallback = `integration-${action}-${input.integrationId}-${input.jobId}`;
  try {
    return activityInfo().workflowExecution?.workflowId ?? fallback;
  } catch {
    // Called outside an activity (a script, a test without the activity environment).
    return fallback;
  }
};

const beat = (details: unknown) => {
  try {
    heartbeat(details);
  } catch {
    // Outside an activity there is no one to tell.
  }
};

const readIntegration = async (writeSide: CommandHandlerDeps, integrationId: number) => {
  const recorded = await writeSide.store.readStream(integrationStream(integrationId));
  const events = (await decodeEvents(writeSide, recorded)).map(toDomainEvent) as IntegrationEvent[];
  return { state: foldEvents(integrationDecider, events), applied: appliedPushesOf(events) };
};

export const createCrmPushActivities = (deps: CrmPushDeps) => {
  const batchSize = deps.batchSize ?? DEFAULT_BATCH;
  const contextOf = (input: CrmPushJobInput, action: string): SystemCommandContext => ({
    writeSide: deps.writeSide,
    workflowId: workflowIdOf(input, action),
    tenantId: input.tenantId,
    process: `integration-${action}`,
  });
  /** Records on the integration's stream under a step id: the same step twice appends once. */
  const recorderOf =
    (context: SystemCommandContext, input: CrmPushJobInput) => (step: string, command: IntegrationCommand) =>
      runSystemCommand(context, integrationDecider, {
        streamId: integrationStream(input.integrationId),
        step,
        command,
      });

  /** The job's live progress when the job exists and runs; heartbeats either way. */
  const progressOf = async (context: SystemCommandContext, job: { jobId: number; stage: string }) => {
    const state = await readState(deps.writeSide, jobDecider, jobStream(job.jobId));
    const live =
      state.status === 'none' || isFinished(state.status)
        ? null
        : throttledProgress(context, { jobId: job.jobId, now: deps.now });
    return async (done: number, total: number) => {
      beat({ stage: job.stage, done, total });
      await live?.record({ stage: job.stage, done, total });
    };
  };

  /**
   * Pushes through the connector in batches and records each batch (RecordCrmPushes). A push that
   * fails records the batch's pushes before it, then fails the activity: its retry plans the rest.
   */
  const applyPushes = async (
    context: SystemCommandContext,
    input: CrmPushJobInput,
    request: {
      connector: CrmConnector;
      planned: readonly PlannedPush[];
      onBatch: (done: number) => Promise<void>;
    },
  ) => {
    let done = 0;
    for (const batch of chunksOf(request.planned, batchSize)) {
      const pushes: RecordedPush[] = [];
      const flush = () =>
        recorderOf(context, input)(
          batchStep(
            'crm-pushes',
            input.jobId,
            pushes.map((p) => p.key),
          ),
          {
            type: 'RecordCrmPushes',
            now: deps.now(),
            data: { jobId: input.jobId, pushes },
          },
        );
      try {
        for (const planned of batch) {
          const result = await request.connector.push(planned.push);
          beat({ key: planned.push.key });
          pushes.push({
            key: planned.push.key,
            kind: planned.push.kind,
            objectType: result.objectType,
            crmId: result.crmId,
            created: isOurs(planned.push.kind, result),
            sellerId: planned.sellerId,
            customerId: planned.customerId,
          });
        }
      } catch (error) {
        if (pushes.length > 0) await flush();
        throw error;
      }
      await flush();
      done += batch.length;
      await request.onBatch(done);
    }
  };

  /**
   * The sales rep of each linked customer: the deps' source when given, else the name of the CRM owner
   * the sync resolved for its company (its own owner, or with UseContactForOwner its contact's).
   */
  const salesRepsOf = async (
    request: { integrationId: number; sellerId: number; links: ReadonlyMap<string, string> },
    owners: ReadonlyMap<string, string | null>,
  ): Promise<ReadonlyMap<string, string>> => {
    if (deps.salesReps) return deps.salesReps(request.sellerId, [...request.links.keys()]);
    const names = new Map(
      (await readMirror(deps.db, request.integrationId, 'owners')).map((owner) => [
        owner.crmId,
        owner.name.trim() || owner.email?.trim() || null,
      ]),
    );
    const reps = new Map<string, string>();
    for (const [customerId, companyCrmId] of request.links) {
      const owner = owners.get(companyCrmId);
      const name = owner ? names.get(owner) : null;
      if (name) reps.set(customerId, name);
    }
    return reps;
  };

  /** One seller's facts, or null when it is gone; the sources are only asked about linked customers. */
  const factsOf = async (input: CrmPushJobInput, sellerId: number, links: ReadonlyMap<string, string>) => {
    const owners =
      (await deps.companyOwners?.(input.integrationId, [...links.values()])) ??
      new Map<string, string | null>();
    const salesReps = await salesRepsOf({ integrationId: input.integrationId, sellerId, links }, owners);
    return loadSellerPushFacts(deps, {
      sellerId,
      tenantId: input.tenantId,
      links,
      sources: { owners, salesReps },
    });
  };

  return {
    /** Pushes what the product knows about every linked customer of the tenant's sellers. */
    async pushToCrm(input: CrmPushJobInput): Promise<{ pushed: number; skipped: number }> {
      const { state, applied } = await readIntegration(deps.writeSide, input.integrationId);
      if (state.status !== 'known' || state.settings === null) return { pushed: 0, skipped: 0 };
      if (state.tenantId !== input.tenantId)
        throw ApplicationFailure.nonRetryable('The integration belongs to another tenant.', 'TenantMismatch');
      const connector = await deps.connectorFor(input.integrationId);
      const context = contextOf(input, 'push');
      const currency = await tenantCurrency(deps.writeSide, input.tenantId);
      const progress = await progressOf(context, { jobId: input.jobId, stage: 'push' });
      const sellers = [...applied.links.entries()]
        .filter(([, links]) => links.size > 0)
        .sort(([a], [b]) => a - b);
      let pushed = 0;
      let skipped = 0;
      for (const [sellerId, links] of sellers) {
        beat({ sellerId });
        const facts = await factsOf(input, sellerId, links);
        if (!facts) continue;
        const plan = planPushes({
          integrationId: input.integrationId,
          revops: state.provider === 'HUBSPOT' && state.productIdentifier === 'REVOPS',
          settings: state.settings,
          supports: connector.supports,
          currency,
          asOf: facts.asOf,
          sellers: [facts satisfies SellerPushFacts],
          applied,
        });
        skipped += plan.skipped;
        await applyPushes(context, input, {
          connector,
          planned: plan.pushes,
          onBatch: (done) => progress(pushed + done, pushed + plan.pushes.length),
        });
        pushed += plan.pushes.length;
      }
      return { pushed, skipped };
    },

    /** Deletes from the CRM exactly the objects the integration's stream records as created by us. */
    async purgeCrm(input: CrmPushJobInput): Promise<{ removed: number }> {
      const { state, applied } = await readIntegration(deps.writeSide, input.integrationId);
      if (state.status !== 'known') return { removed: 0 };
      const objects = createdObjects(applied);
      if (objects.length === 0) return { removed: 0 };
      const connector = await deps.connectorFor(input.integrationId);
      const context = contextOf(input, 'purge');
      const progress = await progressOf(context, { jobId: input.jobId, stage: 'purge' });
      let removed = 0;
      for (const batch of chunksOf(objects, batchSize)) {
        const gone: CrmCreatedObject[] = [];
        const flush = () =>
          recorderOf(context, input)(
            batchStep(
              'crm-purge',
              input.jobId,
              gone.map((o) => `${o.objectType}:${o.crmId}`),
            ),
            {
              type: 'RecordPurgedObjects',
              now: deps.now(),
              data: { jobId: input.jobId, objects: gone },
            },
          );
        try {
          for (const object of batch) {
            await connector.remove(object);
            beat({ removed: object.crmId });
            gone.push(object);
          }
        } catch (error) {
          if (gone.length > 0) await flush();
          throw error;
        }
        await flush();
        removed += gone.length;
        await progress(removed, objects.length);
      }
      return { removed };
    },

    /** Clears the accounting ids Ledgerwise wrote on CRM companies and records those links as gone. */
    async unlinkCrm(input: CrmPushJobInput): Promise<{ unlinked: number }> {
      const { state, applied } = await readIntegration(deps.writeSide, input.integrationId);
      if (state.status !== 'known') return { unlinked: 0 };
      const written = [...applied.writtenLinks.values()].sort(
        (a, b) => a.sellerId - b.sellerId || (a.key < b.key ? -1 : 1),
      );
      if (written.length === 0) return { unlinked: 0 };
      const property = state.settings?.AccountingIdentifier ?? null;
      if (property === null)
        throw ApplicationFailure.nonRetryable(
          'Set the Accounting Identifier property in the account settings: it names the CRM property to clear.',
          'NoAccountingIdentifier',
        );
      const connector = await deps.connectorFor(input.integrationId);
      const context = contextOf(input, 'unlink');
      const progress = await progressOf(context, { jobId: input.jobId, stage: 'unlink' });
      let unlinked = 0;
      for (const batch of chunksOf(written, batchSize)) {
        const bySeller = new Map<number, string[]>();
        const flush = async () => {
          for (const [sellerId, customerIds] of bySeller)
            await recorderOf(context, input)(batchStep(`crm-unlink:${sellerId}`, input.jobId, customerIds), {
              type: 'RecordCompanyMatches',
              now: deps.now(),
              data: { sellerId, jobId: input.jobId, linked: [], unlinked: customerIds },
            });
        };
        try {
          for (const link of batch) {
            // The company the link names; a connector may record the property it wrote as crmId.
            const companyCrmId =
              applied.links.get(link.sellerId)?.get(link.customerId) ??
              link.crmId.split('/')[0] ??
              link.crmId;
            await connector.unlinkCompany(companyCrmId, property);
            beat({ unlinked: companyCrmId });
            bySeller.set(link.sellerId, [...(bySeller.get(link.sellerId) ?? []), link.customerId]);
            unlinked += 1;
          }
        } catch (error) {
          await flush();
          throw error;
        }
        await flush();
        await progress(unlinked, written.length);
      }
      return { unlinked };
    },
  };
};

/** The created objects still in the CRM, attached things before companies, each order stable. */
const createdObjects = (applied: AppliedPushes): CrmCreatedObject[] =>
  [...applied.created.values()]
    .sort((a, b) => removalOrder[a.objectType] - removalOrder[b.objectType] || (a.key < b.key ? -1 : 1))
    .map((push) => ({ objectType: push.objectType, crmId: push.crmId }));

export type CrmPushActivities = ReturnType<typeof createCrmPushActivities>;
