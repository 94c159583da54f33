import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import pino from 'pino';
import { startReportJobReactor } from '../../workflows/reports/report-job-reactor';
import { withReadStoreEnv } from '../harness/isolation';
import {
  completedJob,
  jobEventsOf,
  recordClientPerformanceJob,
  seedClient,
  seedFirm,
  type Person,
} from './client-performance-fixtures';
import { childSays, killHard, useLedgerWorld } from './ledger-world';
import { mailTo, waitForMail } from './report-mail';

/**
 * The advisors' Client Performance job killed in the middle sends no advisor a second email and
 * archives each summary once. The reports worker runs in a process of its own
 * (report-worker-child.ts); it is SIGKILLed just after the mail server accepted the second advisor's
 * email and that advisor's job recorded it, before the send's activity could report back, so
 * Temporal runs that send again on the next worker. A new worker process finishes the job.
 */
jest.setTimeout(300_000);

const world = useLedgerWorld(__filename);
const firm = { tenantId: 61, name: 'Kill Safe Advisors' };
const email = (name: string) => `${name}.${world.names.runId}@example.test`;
const advisors: Person[] = ['ann', 'bob', 'cat'].map((name, index) => ({
  userId: 6101 + index,
  email: email(name),
  given: name.charAt(0).toUpperCase() + name.slice(1),
  family: 'Advisor',
}));
let child: ChildProcess | null = null;
let reactor: { stop: () => Promise<void> } | null = null;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const spawnReportsWorker = (mode: 'stall-after-second-email' | 'normal') =>
  // node with tsx as a loader (not the tsx wrapper), so a SIGKILL stops the process doing the work.
  spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'report-worker-child.ts'), mode], {
    env: {
      ...withReadStoreEnv(process.env, world.config),
      DATA_DIR: world.dataDir,
      TEMPORAL_TASK_QUEUE_PREFIX: world.config.TEMPORAL_TASK_QUEUE_PREFIX,
      S3_BUCKET: world.config.S3_BUCKET,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });

beforeAll(async () => {
  const db = world.db();
  const asOf = new Date();
  // One client each: Ann's is the first, Bob's the second, Cat's the third.
  for (const [index, advisor] of advisors.entries())
    await seedClient(
      db,
      { tenantId: 62 + index, sellerId: 620 + index, name: `${advisor.given}'s Client`, currency: 'USD' },
      asOf,
    );
  await seedFirm(
    db,
    firm,
    advisors.map((person, index) => ({ person, clientTenantIds: [62 + index] })),
  );
  reactor = startReportJobReactor({
    writeSide: world.events().writeSide,
    db,
    client: world.client(),
    config: world.config,
    logger: pino({ level: 'silent' }),
  });
}, 180_000);

afterAll(async () => {
  if (child) await killHard(child);
  await reactor?.stop();
});

describe('a Client Performance job whose worker is killed mid-run', () => {
  it('sends each advisor exactly one email and archives each summary once', async () => {
    child = spawnReportsWorker('stall-after-second-email');
    await childSays(child, 'ready');
    const emailedTwice = childSays(child, 'emailed-twice');
    const jobId = 6100;
    await recordClientPerformanceJob(
      { writeSide: world.events().writeSide, config: world.config },
      { jobId, tenantId: firm.tenantId, requestedBy: advisors[0]!.userId },
    );

    await emailedTwice;
    await killHard(child);
    child = null;
    const before = (await Promise.all(advisors.map((a) => mailTo(world.config, a.email)))).flat();
    expect(before).toHaveLength(2);
    expect((await jobEventsOf(world.events(), jobId)).map((e) => e.type)).not.toContain('JobCompleted');

    // A new worker takes the job over where the killed one left it.
    child = spawnReportsWorker('normal');
    await childSays(child, 'ready');
    const { result } = await completedJob(world.events(), jobId);
    expect(result.sent).toEqual(advisors.map((a) => a.userId));
    // The second advisor's send ran again after the kill and found its email recorded.
    expect(result.advisors.map((a) => [a.userId, a.status])).toEqual([
      [advisors[0]!.userId, 'sent'],
      [advisors[1]!.userId, 'already-sent'],
      [advisors[2]!.userId, 'sent'],
    ]);

    for (const advisor of advisors) await waitForMail(world.config, advisor.email);
    await sleep(1000);
    for (const [index, advisor] of advisors.entries()) {
      const outcome = result.advisors[index]!;
      if (outcome.status !== 'sent' && outcome.status !== 'already-sent') throw new Error(outcome.status);
      expect(await mailTo(world.config, advisor.email)).toHaveLength(1);
      const events = await jobEventsOf(world.events(), outcome.jobId);
      expect(events.filter((e) => e.type === 'JobReportArchived')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'JobReportEmailed')).toHaveLength(1);
      expect(events.map((e) => e.type)).toContain('JobCompleted');
    }
  });
});
