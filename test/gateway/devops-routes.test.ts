import { Client, Connection } from '@temporalio/client';
import { Kafka, logLevel } from 'kafkajs';
import { CronResponse } from '../../contracts/api/jobs';
import { DatabaseResponse, QueueClearResponse, QueuesResponse } from '../../contracts/api/devops';
import { jobStream } from '../../contracts/stream-ids';
import { jobDecider } from '../../domain/job/job-decider';
import { jobsCollection } from '../../projections/jobs/query-jobs';
import { taskQueues } from '../../workflows/task-queues';
import { plainUserOf } from './admin-fixtures';
import { companyFor, platformAdmin, signUp } from './fixtures';
import { useGatewayWorld } from './gateway-world';

/**
 * The devops pages' routes on the real servers: jobs by state from the jobs read model, the test's
 * own Temporal task queues with a real backlog, Kafka consumer lag of a real group, projection lag,
 * and the clears (cancelling jobs and their runs; setting failures aside).
 */
const world = useGatewayWorld(__filename);

let admin: Awaited<ReturnType<typeof platformAdmin>>;
let tenantId: number;
let nextJobId = 900_000;
let temporal: Connection;
let client: Client;

beforeAll(async () => {
  admin = await platformAdmin(world);
  const owner = await signUp(world, { name: 'devops-owner' });
  tenantId = await companyFor(world, owner, { name: 'Devops Company' });
  temporal = await Connection.connect({ address: world.config.TEMPORAL_ADDRESS });
  client = new Client({ connection: temporal, namespace: world.config.TEMPORAL_NAMESPACE });
}, 60_000);

afterAll(async () => {
  await temporal.close();
});

const createJob = async (kind: 'report' | 'task' | 'metrics', status: 'created' | 'running' | 'failed') => {
  const jobId = (nextJobId += 1);
  const workflowId = `${world.runId}-devops-${jobId}`;
  const now = world.clock.now();
  const streamId = jobStream(jobId);
  await world.run(jobDecider, streamId, {
    type: 'CreateJob',
    data: { jobId, kind, tenantId, sellerId: null, parameters: { type: 'devops-test' }, workflowId },
    now,
  });
  if (status !== 'created') await world.run(jobDecider, streamId, { type: 'StartJob', data: {}, now });
  if (status === 'failed')
    await world.run(jobDecider, streamId, { type: 'FailJob', data: { reason: 'test failure' }, now });
  return { jobId, workflowId };
};

const queues = async () => {
  const response = await admin.browser.get('/api/devops/queues');
  expect(response.statusCode).toBe(200);
  return QueuesResponse.parse(response.json());
};

const jobQueue = (answer: QueuesResponse, name: string) => answer.jobs.find((queue) => queue.name === name);

describe('GET /api/devops/queues', () => {
  it('counts jobs by state per queue, with the task queue their runs go to', async () => {
    await createJob('report', 'created');
    await createJob('report', 'created');
    await createJob('report', 'running');
    await createJob('report', 'failed');
    await world.settle();
    const answer = await queues();
    expect(jobQueue(answer, 'report')).toMatchObject({
      waiting: 2,
      locked: 1,
      failed: 1,
      taskQueue: taskQueues(world.config).reports,
    });
    expect(jobQueue(answer, 'report')?.oldestWaitingAt).not.toBeNull();
  });

  it('shows each Temporal task queue of the deployment with its backlog and pollers', async () => {
    const systemQueue = taskQueues(world.config).system;
    // A run nobody polls for: its first workflow task waits in the queue.
    await client.workflow.start('devopsBacklogProbe', {
      taskQueue: systemQueue,
      workflowId: `${world.runId}-backlog`,
    });
    let system:
      NonNullable<Extract<QueuesResponse['temporal'], { available: true }>['queues'][number]> | undefined;
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const answer = await queues();
      if (!answer.temporal.available) throw new Error(answer.temporal.error);
      expect(answer.temporal.serverVersion).toMatch(/^\d+\.\d+/);
      expect(answer.temporal.queues.map((queue) => queue.concern).sort()).toEqual([
        'datasets',
        'integrations',
        'liveReports',
        'metrics',
        'reports',
        'sync',
        'system',
      ]);
      system = answer.temporal.queues.find((queue) => queue.name === systemQueue);
      if ((system?.workflowBacklog ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(system?.workflowBacklog).toBe(1);
    expect(system?.pollers).toEqual([]);
  }, 30_000);

  it("reports a consumer group's lag behind its topic and every read model's lag", async () => {
    const kafka = new Kafka({ brokers: world.config.KAFKA_BROKERS, logLevel: logLevel.NOTHING });
    const kafkaAdmin = kafka.admin();
    const producer = kafka.producer();
    const topic = `${world.config.KAFKA_TOPIC_PREFIX}.devops-probe`;
    const groupId = `${world.config.KAFKA_TOPIC_PREFIX}.devops-group`;
    await kafkaAdmin.connect();
    await producer.connect();
    try {
      await kafkaAdmin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
      await producer.send({ topic, messages: [1, 2, 3, 4, 5].map((n) => ({ value: String(n) })) });
      // The group has read two of the five records.
      await kafkaAdmin.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: '2' }] });
      const answer = await queues();
      if (!answer.kafka.available) throw new Error(answer.kafka.error);
      expect(answer.kafka.groups).toEqual([
        expect.objectContaining({ groupId, lag: 3, topics: [{ topic, lag: 3, partitions: 1 }] }),
      ]);
    } finally {
      await kafkaAdmin.deleteGroups([groupId]).catch(() => undefined);
      await kafkaAdmin.deleteTopics({ topics: [topic] }).catch(() => undefined);
      await producer.disconnect();
      await kafkaAdmin.disconnect();
    }

    await world.settle();
    const settled = await queues();
    const jobs = settled.projections.find((row) => row.name === 'jobs');
    expect(jobs).toMatchObject({ lag: 0 });
    expect(jobs?.head).toBeGreaterThan(0);
    const paused = await world.pauseProjection('jobs');
    try {
      await createJob('task', 'created');
      const behind = await queues();
      expect(behind.projections.find((row) => row.name === 'jobs')?.lag).toBeGreaterThan(0);
    } finally {
      paused.resume();
    }
    expect(settled.outbox.depth).toBe(0);
    expect(settled.readStore.version).not.toBe('');
    expect(settled.readStore.collections).toBeGreaterThan(5);
  }, 30_000);

  it('is for platform admins only', async () => {
    const owner = await signUp(world, { name: 'devops-member' });
    const memberTenant = await companyFor(world, owner, { name: 'Member Company' });
    expect((await owner.browser.get('/api/devops/queues')).statusCode).toBe(403);
    expect((await owner.browser.get('/api/devops/database')).statusCode).toBe(403);
    const plain = await plainUserOf(world, memberTenant, 'devops-plain');
    expect((await plain.browser.delete('/api/devops/queues/report?status=waiting')).statusCode).toBe(403);
  });
});

describe('DELETE /api/devops/queues/{name}', () => {
  it('cancels waiting jobs, leaving the other queues and states alone', async () => {
    const waiting = await createJob('metrics', 'created');
    const running = await createJob('metrics', 'running');
    await world.settle();
    const response = await admin.browser.delete('/api/devops/queues/metrics?status=waiting');
    expect(response.statusCode).toBe(200);
    expect(QueueClearResponse.parse(response.json())).toMatchObject({ queue: 'metrics', cleared: 1 });
    await world.settle();
    expect(jobQueue(await queues(), 'metrics')).toMatchObject({ waiting: 0, locked: 1, cancelled: 1 });
    const jobs = await jobsCollection(world.services.db);
    expect((await jobs.findOne({ _id: waiting.jobId }))?.status).toBe('cancelled');
    expect((await jobs.findOne({ _id: running.jobId }))?.status).toBe('running');
  });

  it('clears locks: the running job is cancelled and so is its Temporal run', async () => {
    const { workflowId } = await createJob('task', 'running');
    const handle = await client.workflow.start('devopsLockProbe', {
      taskQueue: taskQueues(world.config).system,
      workflowId,
    });
    await world.settle();
    const response = await admin.browser.delete('/api/devops/queues/task?status=locks');
    expect(QueueClearResponse.parse(response.json()).cleared).toBe(1);
    const history = await handle.fetchHistory();
    expect(history.events?.some((event) => event.workflowExecutionCancelRequestedEventAttributes)).toBe(true);
    await world.settle();
    expect(jobQueue(await queues(), 'task')?.locked).toBe(0);
    await handle.terminate('test over').catch(() => undefined);
  }, 30_000);

  it('sets failures aside: the failed count starts again from the clear', async () => {
    await createJob('report', 'failed');
    await world.settle();
    expect(jobQueue(await queues(), 'report')?.failed).toBe(2);
    const cleared = await admin.browser.delete('/api/devops/queues/report?status=failed');
    expect(QueueClearResponse.parse(cleared.json()).cleared).toBe(2);
    expect(jobQueue(await queues(), 'report')).toMatchObject({ failed: 0 });
    world.clock.advance(1000);
    await createJob('report', 'failed');
    await world.settle();
    expect(jobQueue(await queues(), 'report')?.failed).toBe(1);
  });

  it('refuses an unknown queue or state', async () => {
    expect((await admin.browser.delete('/api/devops/queues/nothing?status=waiting')).statusCode).toBe(422);
    expect((await admin.browser.delete('/api/devops/queues/report?status=everything')).statusCode).toBe(422);
  });
});

describe('GET /api/devops/database', () => {
  it('lists every read-store collection with its count and field names', async () => {
    const response = await admin.browser.get('/api/devops/database');
    expect(response.statusCode).toBe(200);
    const answer = DatabaseResponse.parse(response.json());
    const jobs = answer.collections.find((collection) => collection.name.startsWith('jobs'));
    expect(jobs?.count).toBeGreaterThanOrEqual(8);
    expect(jobs?.fields).toEqual(expect.arrayContaining(['_id', 'kind', 'status', 'workflowId']));
  });
});

describe('GET /api/cron/{name}', () => {
  it("describes a task's parameters and lists its latest runs, newest first", async () => {
    // Two earlier moves, as POST /api/tasks records them (test/billing/subscriptions.test.ts runs one).
    for (const customerId of [41, 42]) {
      const jobId = (nextJobId += 1);
      await world.run(jobDecider, jobStream(jobId), {
        type: 'CreateJob',
        data: {
          jobId,
          kind: 'task',
          tenantId,
          sellerId: null,
          parameters: { type: 'moveIndirectCustomer', customerId },
          workflowId: `${world.runId}-devops-${jobId}`,
        },
        now: world.clock.now(),
      });
      world.clock.advance(1000);
    }
    await world.settle();
    const response = await admin.browser.get('/api/cron/moveIndirectCustomer');
    expect(response.statusCode).toBe(200);
    const cron = CronResponse.parse(response.json());
    expect(cron.parameters).toEqual([
      expect.objectContaining({ name: 'customerId', type: 'id', required: true }),
    ]);
    expect(cron.recentJobs.map((job) => job.Parameters.customerId)).toEqual([42, 41]);
    expect(cron.recentJobs[0]).toMatchObject({
      Kind: 'task',
      Type: 'moveIndirectCustomer',
      TenantId: tenantId,
    });
  });
});
