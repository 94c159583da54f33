import type { ChildProcess } from 'node:child_process';
import { jobStream, recipientStream, tenantStream } from '../../contracts/stream-ids';
import type { JobEvent } from '../../contracts/events/job';
import { systemActor } from '../../domain/actor';
import { jobDecider } from '../../domain/job/job-decider';
import { isFinished } from '../../domain/job/job';
import { recipientDecider } from '../../domain/recipient/recipient-decider';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import { listArchivedReports } from '../../projections/reports/query-reports';
import { recordReportJob } from '../../workflows/reports/record-report-job';
import { archiveObjectKey } from '../../workflows/reports/archive/report-archive';
import type { ReportJobResult } from '../../workflows/reports/report-job-input';
import { readState } from '../../workflows/sync/system-commands';
import { childSays, connectDemoSeller, killHard, useLedgerWorld } from './ledger-world';
import { useReportKillRuntime } from './report-kill-world';
import { mailTo, waitForMail } from './report-mail';

/**
 * Issue 14, done means: a report workflow killed in the middle sends no duplicate email and archives
 * each report once. The reports worker runs in a process of its own; it is SIGKILLed just after the
 * mail server accepted the second of six emails and the job recorded it, before the send's activity
 * could report back, so Temporal runs that send again on the next worker. A new worker process
 * finishes the job. MailDev then holds exactly one email per recipient, and the archive one file (one
 * object, one row) for the report.
 */
jest.setTimeout(300_000);

const world = useLedgerWorld(__filename);
const tenantId = 31;
const sellerId = 310;
const { spawnReportsWorker, run, waitForFirstMetrics, jobEvents, settled, archivedKeys, sleep } =
  useReportKillRuntime(world);
let child: ChildProcess | null = null;

/** A tenant, its DEMO seller synced with metrics, and six contacts subscribed to its reports. */
const seed = async (): Promise<{ emails: string[]; recipientIds: number[] }> => {
  await run(tenantDecider, tenantStream(tenantId), {
    type: 'CreateTenant',
    data: { tenantId, name: 'Kill Safe Ltd', classification: 'BUSINESS' },
    now: new Date(),
    actor: systemActor,
  });
  await connectDemoSeller(world.events(), { sellerId, tenantId });
  const emails = ['ada', 'ben', 'cy', 'di', 'ed', 'flo'].map(
    (name) => `${name}.${world.names.runId}@example.test`,
  );
  const recipientIds = emails.map((_, index) => 3100 + index);
  for (const [index, email] of emails.entries())
    await run(recipientDecider, recipientStream(recipientIds[index]!), {
      type: 'SubscribeRecipient',
      now: new Date(),
      data: {
        recipientId: recipientIds[index]!,
        tenantId,
        sellerId,
        subscriber: { email, givenName: email.split('.')[0]!, familyName: null, jobTitle: null },
        actor: systemActor,
        subscriberAlreadySubscribed: false,
      },
    });
  await waitForFirstMetrics([sellerId]);
  return { emails, recipientIds };
};

describe('a report worker killed mid-job', () => {
  it('sends no duplicate email and archives the report once', async () => {
    const { emails, recipientIds } = await seed();
    await settled();

    child = spawnReportsWorker('stall-after-second-email');
    await childSays(child, 'ready');
    const emailedTwice = childSays(child, 'emailed-twice');
    const { jobId } = await recordReportJob(
      { writeSide: world.events().writeSide, config: world.config },
      {
        requestId: `kill-test-${world.names.runId}`,
        process: 'report-test',
        tenantId,
        sellerId,
        parameters: { type: 'weekly', recipientIds },
        now: new Date(),
      },
    );

    await emailedTwice;
    await killHard(child);
    expect((await jobEvents(jobId)).filter((e) => e.type === 'JobReportEmailed')).toHaveLength(2);
    child = null;
    const job = await readState(world.events().writeSide, jobDecider, jobStream(jobId));
    expect(job.status !== 'none' && isFinished(job.status)).toBe(false);
    const sentBeforeKill = (
      await Promise.all(emails.map((email) => mailTo(world.config, email, jobId)))
    ).flat();
    expect(sentBeforeKill.length).toBeLessThan(emails.length);

    // A new worker takes the job over where the killed one left it.
    child = spawnReportsWorker('normal');
    await childSays(child, 'ready');
    let events: JobEvent[] = [];
    for (let attempt = 0; attempt < 1200; attempt += 1) {
      events = await jobEvents(jobId);
      if (events.some((e) => e.type === 'JobCompleted' || e.type === 'JobFailed')) break;
      await sleep(250);
    }
    const completed = events.find((e) => e.type === 'JobCompleted');
    expect(completed?.type).toBe('JobCompleted');
    const result = (completed?.type === 'JobCompleted' ? completed.data.result : null) as ReportJobResult;
    expect(result.sent).toEqual(recipientIds);

    // Exactly one email per recipient.
    for (const email of emails) await waitForMail(world.config, email, { jobId });
    await sleep(1000);
    for (const email of emails) expect(await mailTo(world.config, email, jobId)).toHaveLength(1);
    expect(events.filter((e) => e.type === 'JobReportEmailed')).toHaveLength(emails.length);

    // One archived report: one record, one object, one row in the archive's table.
    expect(events.filter((e) => e.type === 'JobReportArchived')).toHaveLength(1);
    const listedKeys = await archivedKeys(tenantId);
    expect(listedKeys).toEqual([
      archiveObjectKey({ tenantId, jobId, sellerId, type: 'WEEKLY_REPORT', extension: 'pdf' }),
    ]);
    await settled();
    const { rows } = await listArchivedReports(world.db(), { tenantId, sellerId, limit: 100 });
    expect(rows.map((row) => row.Type)).toEqual(['WEEKLY_REPORT']);
  });
});
