import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { Logger } from 'pino';
import type { Config } from '../contracts/config';
import { check, healthReport, type RunningProcess } from '../contracts/health';
import * as systemActivities from './system/activities';
import { taskQueues } from './task-queues';

let runtimeInstalled = false;
/** The SDK's runtime is process-wide and may be installed once, before the first connection. */
const installTemporalRuntime = (config: Config) => {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const level = config.LOG_LEVEL === 'debug' || config.LOG_LEVEL === 'trace' ? 'DEBUG' : 'WARN';
  // shutdownSignals: the CLI owns SIGINT/SIGTERM and stops every role in order.
  Runtime.install({ logger: new DefaultLogger(level), shutdownSignals: [] });
};

/** The Temporal worker process. Later issues add the sync, metrics, reports and datasets queues. */
export const startWorkerRole = async (config: Config, logger: Logger): Promise<RunningProcess> => {
  installTemporalRuntime(config);
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const worker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: taskQueues(config).system,
    workflowsPath: require.resolve('./system/workflows'),
    activities: systemActivities,
    // Sized for a 2-core machine: a few concurrent tasks, not the SDK's defaults for big hosts.
    maxConcurrentActivityTaskExecutions: 8,
    maxConcurrentWorkflowTaskExecutions: 8,
  });
  const running = worker.run();
  running.catch((error: unknown) =>
    logger.error({ err: error }, 'the Temporal worker stopped with an error'),
  );
  return {
    name: 'worker',
    health: async () =>
      healthReport('worker', [
        await check('temporal worker', () =>
          worker.getState() === 'RUNNING' ? Promise.resolve() : Promise.reject(new Error(worker.getState())),
        ),
      ]),
    stop: async () => {
      worker.shutdown();
      await running.catch(() => undefined);
      await connection.close();
    },
  };
};
