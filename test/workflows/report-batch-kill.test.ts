import type { ChildProcess } from 'node:child_process';
import { JobEvent } from '../../contracts/events/job';
import { jobStream, recipientStream, tenantStream } from '../../contracts/stream-ids';
import { systemActor } from '../../domain/actor';
import { recipientDecider } from '../../domain/recipient/recipient-decider';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import { listArchivedReports } from '../../projections/reports/query-reports';
import { archiveObjectKey } from '../../workflows/reports/archive/report-archive';
import type { ReportJobResult } from '../../workflows/reports/report-job-input';
import { reportScheduleId } from '../../workflows/reports/report-schedules/schedule-spec';
import type { scheduledReportsWorkflow } from '../../workflows/reports/workflows';
import { taskQueues } from '../../workflows/task-queues';
import { childSays, connectDemoSeller, killHard, useLedgerWorld } from './ledger-world';
import { useReportKillRuntime } from './report-kill-world';
import { mailTo, waitForMail } from './report-mail';

/**
 * The scheduled send in batches (docs/adr/0038), killed mid-batch: a weekly send to three DEMO
 * sellers, one reader each, all three in one batch activity of the reports worker, which runs in a
 * process of its own and is SIGKILLed just after the mail server accepted the second seller's email
 * and its job recorded it. Temporal retries the batch on a new worker process, which skips what the
 * jobs record as done. Then: one email per reader, each report archived once (one record, one object,
 * one row), every job completed, every reader tracked once, and the job reactor (running throughout) started no run of its own
 * for any of them.
 */
jest.setTimeout(300_000);

const world = useLedgerWorld(__filename);
const tenantId = 32;
const sellerIds = [320, 321, 322];
const { spawnReportsWorker, run, waitForFirstMetrics, jobEvents, settled, archivedKeys, sleep } =
  useReportKillRuntime(world);
let child: ChildProcess | null = null;

/** A tenant, three DEMO sellers synced with metrics, and one reader subscribed to each. */
const seed = async (): Promise<{ emails: string[]; recipientIds: number[] }> => {
  await run(tenantDecider, tenantStream(tenantId), {
    type: 'CreateTenant',
    data: { tenantId, name: 'Batch Safe Ltd', classification: 'BUSINESS' },
    now: new Date(),
    actor: systemActor,
  });
  const emails = ['gus', 'hal', 'ivy'].map((name) => `${name}.${world.names.runId}@example.test`);
  const recipientIds = emails.map((_, index) => 3200 + index);
  for (const [index, sellerId] of sellerIds.entries()) {
    await connectDemoSeller(world.events(), { sellerId, tenantId });
    await run(recipientDecider, recipientStream(recipientIds[index]!), {
      type: 'SubscribeRecipient',
      now: new Date(),
      data: {
        recipientId: recipientIds[index]!,
        tenantId,
        sellerId,
        subscriber: { email: emails[index]!, givenName: 'Reader', familyName: null, jobTitle: null },
        actor: systemActor,
        subscriberAlreadySubscribed: false,
      },
    });
  }
  await waitForFirstMetrics(sellerIds);
  return { emails, recipientIds };
};

/** The jobs the send recorded, by seller, read from the store (JobCreated of this tenant's sellers). */
const jobsOfTheSend = async (): Promise<Map<number, number>> => {
  const created = await world.events().store.readAll({ filter: { eventTypes: ['JobCreated'] } });
  const jobs = new Map<number, number>();
  for (const event of created) {
    const { data } = JobEvent.parse({ type: event.type, data: event.data }) as {
      data: { jobId: number; sellerId: number | null; tenantId: number };
    };
    if (data.tenantId === tenantId && data.sellerId !== null) jobs.set(data.sellerId, data.jobId);
  }
  return jobs;
};

describe('a scheduled send killed mid-batch', () => {
  it('sends no duplicate, archives each report once and leaves no job behind', async () => {
    const { emails, recipientIds } = await seed();
    await settled();

    child = spawnReportsWorker('batch-stall-after-second-email');
    await childSays(child, 'ready');
    const emailedTwice = childSays(child, 'emailed-twice');
    const scheduledAt = new Date();
    const workflowId = `${reportScheduleId(world.config, { tenantId, frequency: 'weekly' })}-${scheduledAt.toISOString()}`;
    const handle = await world
      .client()
      .workflow.start<typeof scheduledReportsWorkflow>('scheduledReportsWorkflow', {
        taskQueue: taskQueues(world.config).reports,
        workflowId,
        args: [{ tenantId, frequency: 'weekly', scheduledAt: scheduledAt.toISOString() }],
      });

    await emailedTwice;
    await killHard(child);
    child = null;
    const jobs = await jobsOfTheSend();
    expect([...jobs.keys()].sort()).toEqual(sellerIds);
    const emailedBeforeKill = await Promise.all(
      [...jobs.values()].map(
        async (jobId) => (await jobEvents(jobId)).filter((e) => e.type === 'JobReportEmailed').length,
      ),
    );
    expect(emailedBeforeKill.sort()).toEqual([0, 1, 1]);

    // A new worker retries the batch where the killed one left it.
    child = spawnReportsWorker('normal');
    await childSays(child, 'ready');
    const result = await handle.result();
    expect(result.skipped).toBeNull();
    expect([...result.jobIds].sort()).toEqual([...jobs.values()].sort());

    const listedKeys = await archivedKeys(tenantId);
    const expectedKeys: string[] = [];
    for (const [index, sellerId] of sellerIds.entries()) {
      const jobId = jobs.get(sellerId)!;
      const events = await jobEvents(jobId);
      // Each job ended once, completed, sent to its one reader.
      expect(events.filter((e) => e.type === 'JobCompleted' || e.type === 'JobFailed')).toHaveLength(1);
      const completed = events.find((e) => e.type === 'JobCompleted');
      const jobResult = (
        completed?.type === 'JobCompleted' ? completed.data.result : null
      ) as ReportJobResult;
      expect(jobResult.sent).toEqual([recipientIds[index]]);
      expect(events.filter((e) => e.type === 'JobReportEmailed')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'JobReportArchived')).toHaveLength(1);
      // Its reader's weekly date tracked once, also for the job killed between its completing email
      // and the tracking (the retry tracks what that job emailed).
      const tracked = (await world.events().store.readStream(recipientStream(recipientIds[index]!))).filter(
        (e) => e.type === 'RecipientReportTracked',
      );
      expect(tracked).toHaveLength(1);
      // Exactly one email to its reader.
      await waitForMail(world.config, emails[index]!, { jobId });
      expectedKeys.push(
        archiveObjectKey({ tenantId, jobId, sellerId, type: 'WEEKLY_REPORT', extension: 'pdf' }),
      );
    }
    await sleep(1000);
    for (const [index, sellerId] of sellerIds.entries())
      expect(await mailTo(world.config, emails[index]!, jobs.get(sellerId))).toHaveLength(1);
    // One object per report in the archive, and one row each in the Report Archive.
    expect(listedKeys.sort()).toEqual(expectedKeys.sort());
    await settled();
    for (const sellerId of sellerIds) {
      const { rows } = await listArchivedReports(world.db(), { tenantId, sellerId, limit: 100 });
      expect(rows.map((row) => row.Type)).toEqual(['WEEKLY_REPORT']);
    }
    // The job reactor started no run of its own for a batched job.
    for (const jobId of jobs.values()) {
      const [created] = await world.events().store.readStream(jobStream(jobId), { maxCount: 1 });
      const runOfItsOwn = (created?.data as { workflowId: string }).workflowId;
      await expect(world.client().workflow.getHandle(runOfItsOwn).describe()).rejects.toThrow();
    }
  });
});
