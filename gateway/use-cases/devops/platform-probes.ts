import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import type { z } from 'zod';
import type { Config } from '../../../contracts/config';
import type { KafkaLag, TemporalQueues } from '../../../contracts/api/devops';
import { taskQueues } from '../../../workflows/task-queues';

/** A probe that takes longer answers "unavailable" rather than stall the 5-second poll. */
const PROBE_TIMEOUT_MS = 3000;

export const withTimeout = <T>(work: Promise<T>, what: string, ms = PROBE_TIMEOUT_MS): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
};

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Temporal's int64 fields arrive as Long objects (or numbers); their string form is the decimal value. */
const longToNumber = (value: unknown): number => {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'number') return value;
  const parsed = Number((value as { toString: () => string }).toString());
  return Number.isFinite(parsed) ? parsed : 0;
};

const timestampIso = (value: temporal.api.taskqueue.v1.IPollerInfo['lastAccessTime']): string | null => {
  if (!value?.seconds) return null;
  return new Date(longToNumber(value.seconds) * 1000 + Math.floor((value.nanos ?? 0) / 1e6)).toISOString();
};

/**
 * The gateway's own clients of Temporal and Kafka for the devops page, opened on first use and closed
 * with the app. The gateway starts no workflows and consumes nothing: these only describe.
 */
export type PlatformProbes = {
  temporalQueues: () => Promise<z.infer<typeof TemporalQueues>>;
  /** Cancels a run by workflow id; false when there is none to cancel. */
  cancelWorkflow: (workflowId: string) => Promise<boolean>;
  kafkaLag: () => Promise<z.infer<typeof KafkaLag>>;
  close: () => Promise<void>;
};

type ProbeConfig = Pick<
  Config,
  | 'TEMPORAL_ADDRESS'
  | 'TEMPORAL_NAMESPACE'
  | 'TEMPORAL_TASK_QUEUE_PREFIX'
  | 'KAFKA_BROKERS'
  | 'KAFKA_TOPIC_PREFIX'
>;

export const createPlatformProbes = (config: ProbeConfig): PlatformProbes => {
  let connection: Connection | null = null;
  const temporalConnection = () => {
    connection ??= Connection.lazy({ address: config.TEMPORAL_ADDRESS, connectTimeout: PROBE_TIMEOUT_MS });
    return connection;
  };
  let admin: Promise<Admin> | null = null;
  const kafkaAdmin = () => {
    admin ??= (async () => {
      const client = new Kafka({
        clientId: `${config.KAFKA_TOPIC_PREFIX}-devops`,
        brokers: config.KAFKA_BROKERS,
        logLevel: logLevel.NOTHING,
        connectionTimeout: PROBE_TIMEOUT_MS,
        requestTimeout: PROBE_TIMEOUT_MS,
        retry: { retries: 0 },
      });
      const created = client.admin();
      await created.connect();
      return created;
    })();
    // A failed connect is forgotten, so the next poll tries again.
    admin.catch(() => {
      admin = null;
    });
    return admin;
  };

  const describe = async (name: string, type: temporal.api.enums.v1.TaskQueueType) =>
    temporalConnection().workflowService.describeTaskQueue({
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: { name, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      taskQueueType: type,
      reportStats: true,
    });

  const temporalQueues: PlatformProbes['temporalQueues'] = async () => {
    try {
      const { TASK_QUEUE_TYPE_WORKFLOW, TASK_QUEUE_TYPE_ACTIVITY } = temporal.api.enums.v1.TaskQueueType;
      const service = temporalConnection().workflowService;
      const info = await withTimeout(service.getSystemInfo({}), 'Temporal');
      const queues = await withTimeout(
        Promise.all(
          Object.entries(taskQueues(config)).map(async ([concern, name]) => {
            const [workflow, activity] = await Promise.all([
              describe(name, TASK_QUEUE_TYPE_WORKFLOW),
              describe(name, TASK_QUEUE_TYPE_ACTIVITY),
            ]);
            const pollersOf = (answer: typeof workflow, type: 'workflow' | 'activity') =>
              (answer.pollers ?? []).map((poller) => ({
                identity: poller.identity ?? 'unknown',
                lastAccessTime: timestampIso(poller.lastAccessTime),
                type,
              }));
            return {
              name,
              concern,
              workflowBacklog: longToNumber(workflow.stats?.approximateBacklogCount),
              activityBacklog: longToNumber(activity.stats?.approximateBacklogCount),
              pollers: [...pollersOf(workflow, 'workflow'), ...pollersOf(activity, 'activity')],
            };
          }),
        ),
        'Temporal',
      );
      return {
        available: true as const,
        address: config.TEMPORAL_ADDRESS,
        namespace: config.TEMPORAL_NAMESPACE,
        serverVersion: info.serverVersion || null,
        queues,
      };
    } catch (error) {
      return { available: false as const, error: messageOf(error) };
    }
  };

  const cancelWorkflow: PlatformProbes['cancelWorkflow'] = async (workflowId) => {
    try {
      await withTimeout(
        temporalConnection().workflowService.requestCancelWorkflowExecution({
          namespace: config.TEMPORAL_NAMESPACE,
          workflowExecution: { workflowId },
          reason: 'Cleared from the devops queues page',
        }),
        'Temporal',
      );
      return true;
    } catch {
      // Not started, already closed, or Temporal away: the job is cancelled all the same.
      return false;
    }
  };

  const kafkaLag: PlatformProbes['kafkaLag'] = async () => {
    try {
      const client = await withTimeout(kafkaAdmin(), 'Kafka');
      const { groups } = await withTimeout(client.listGroups(), 'Kafka');
      // Groups of this deployment only (test runs and other deployments use other prefixes).
      const ours = groups
        .map((group) => group.groupId)
        .filter((groupId) => groupId.startsWith(config.KAFKA_TOPIC_PREFIX))
        .sort();
      const described =
        ours.length === 0 ? { groups: [] } : await withTimeout(client.describeGroups(ours), 'Kafka');
      const highWater = new Map<string, Map<number, number>>();
      const topicHigh = async (topic: string) => {
        let known = highWater.get(topic);
        if (!known) {
          const offsets = await client.fetchTopicOffsets(topic);
          known = new Map(offsets.map((o) => [o.partition, Number(o.high)]));
          highWater.set(topic, known);
        }
        return known;
      };
      const rows = await withTimeout(
        Promise.all(
          ours.map(async (groupId) => {
            const committed = await client.fetchOffsets({ groupId });
            const topics = await Promise.all(
              committed.map(async ({ topic, partitions }) => {
                const high = await topicHigh(topic);
                const lag = partitions.reduce((sum, p) => {
                  const end = high.get(p.partition) ?? 0;
                  const at = Number(p.offset);
                  return sum + Math.max(0, at < 0 ? end : end - at);
                }, 0);
                return { topic, lag, partitions: partitions.length };
              }),
            );
            const description = described.groups.find((group) => group.groupId === groupId);
            return {
              groupId,
              state: description?.state ?? 'Unknown',
              members: description?.members.length ?? 0,
              topics,
              lag: topics.reduce((sum, topic) => sum + topic.lag, 0),
            };
          }),
        ),
        'Kafka',
      );
      return { available: true as const, brokers: config.KAFKA_BROKERS, groups: rows };
    } catch (error) {
      return { available: false as const, error: messageOf(error) };
    }
  };

  return {
    temporalQueues,
    cancelWorkflow,
    kafkaLag,
    close: async () => {
      const openAdmin = admin;
      admin = null;
      if (openAdmin) await openAdmin.then((a) => a.disconnect()).catch(() => undefined);
      if (connection) await connection.close().catch(() => undefined);
      connection = null;
    },
  };
};
