import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { Kafka, logLevel } from 'kafkajs';
import type { Logger } from 'pino';
import type { Config } from '../contracts/config';
import { check, healthReport, type RunningProcess } from '../contracts/health';
import { openEventSource } from '../commands/open-event-source';
import { startMetricsJobReactor } from './metrics/metrics-job-reactor';
import { startForecastAfterMetricsReactor } from './forecast/forecast-after-metrics-reactor';
import { createMetricsWorker } from './metrics/worker';
import { createMailer } from './email/smtp-mailer';
import { createReportObjectStore } from './reports/archive/report-archive';
import { startPdfProcess, stopPdfProcess } from './reports/pdf/pdf-renderer';
import { startReportJobReactor } from './reports/report-job-reactor';
import { createReportParts } from './reports/report-parts';
import { startReportScheduleReactor } from './reports/report-schedules/report-schedule-reactor';
import { startConnectorRecipientReactor } from './reports/subscribe-connector-reactor';
import { startWelcomeReportReactor } from './reports/welcome-report-reactor';
import { createReportsWorker } from './reports/worker';
import { createLedgerOutboxPublisher } from './outbox/ledger-outbox-publisher';
import { createThreadedLedgerFeedSender } from './outbox/threaded-ledger-feed-sender';
import * as systemActivities from './system/activities';
import { connectorsFor } from './sync/connectors';
import { startSyncRequestReactor } from './sync/sync-request-reactor';
import { createSyncWorker } from './sync/worker';
import { taskQueues } from './task-queues';
import { openReadStore } from '../projections/read-store/open-read-store';
import { startBilling } from './billing/start-billing';
import { log as activityLog } from '@temporalio/activity';
import { createCrmServices, crmConnectorFactories } from './integrations/crm-services';
import { createCrmPushActivities } from './integrations/crm/push/push-activities';
import { startIntegrationJobReactor } from './integrations/crm/integration-job-reactor';
import { createIntegrationsWorker } from './integrations/worker';
import { startLiveReports } from './integrations/cloud/live-reports-role';

let runtimeInstalled = false;
/** The SDK's runtime is process-wide and may be installed once, before the first connection. */
const installTemporalRuntime = (config: Config) => {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const level = config.LOG_LEVEL === 'debug' || config.LOG_LEVEL === 'trace' ? 'DEBUG' : 'WARN';
  // shutdownSignals: the CLI owns SIGINT/SIGTERM and stops every role in order.
  Runtime.install({ logger: new DefaultLogger(level), shutdownSignals: [] });
};

/**
 * The Temporal worker process: one worker per task queue (system, sync, metrics, reports; datasets
 * arrive with their issue) and the ledger outbox publisher that feeds Kafka.
 */
export const startWorkerRole = async (config: Config, logger: Logger): Promise<RunningProcess> => {
  installTemporalRuntime(config);
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const readStore = await openReadStore(config);
  const { db } = readStore;
  const events = await openEventSource(config);
  const now = () => new Date();
  const kafka = new Kafka({
    clientId: `${config.KAFKA_TOPIC_PREFIX}-ledger-outbox`,
    brokers: config.KAFKA_BROKERS,
    logLevel: logLevel.WARN,
  });
  // Syncs send the pages they write to the ledger feed themselves, from a thread of their own (so
  // kafkajs's encoding runs beside the row inserts); the outbox publisher is the fallback.
  const feed = createThreadedLedgerFeedSender({
    kafka: {
      clientId: `${config.KAFKA_TOPIC_PREFIX}-ledger-feed`,
      brokers: config.KAFKA_BROKERS,
      logLevel: logLevel.WARN,
    },
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
  });
  // Requests recorded by the gateway become runs (docs/adr/0018-pipeline-start.md).
  const clientConnection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
  const client = new Client({ connection: clientConnection, namespace: config.TEMPORAL_NAMESPACE });
  // CRM integration jobs (docs/adr/0045-crm-sync.md): the Debug* settings log through the activity's logger.
  const crm = createCrmServices({
    db,
    writeSide: events.writeSide,
    config,
    now,
    factories: crmConnectorFactories(config),
    debug: (message, details) => {
      activityLog.debug(message, details);
    },
  });
  const reportObjects = createReportObjectStore(config);
  const reportMailer = createMailer(config);
  const pipelineWorkers = [
    await createSyncWorker({
      connection,
      config,
      deps: {
        db,
        writeSide: events.writeSide,
        connectorFor: connectorsFor(db, { config, writeSide: events.writeSide, now }),
        now,
        feed,
      },
    }),
    await createMetricsWorker({ connection, config, deps: { db, writeSide: events.writeSide, now } }),
    await createIntegrationsWorker({
      connection,
      config,
      deps: { db, writeSide: events.writeSide, vault: crm.vault, now, connectors: crm.connectors },
      push: createCrmPushActivities({
        db,
        writeSide: events.writeSide,
        now,
        connectorFor: crm.connectors.connectorFor,
        companyOwners: crm.companyOwners,
      }),
    }),
    await createReportsWorker({
      connection,
      config,
      client,
      deps: {
        db,
        writeSide: events.writeSide,
        now,
        config,
        parts: createReportParts({
          db,
          writeSide: events.writeSide,
          now,
          objects: reportObjects,
          mailer: reportMailer,
        }),
      },
    }),
  ];
  // Live Reports (docs/adr/0049-live-reports.md): Google and OneDrive sheets refreshed after each sync.
  const liveReports = await startLiveReports({
    connection,
    client,
    config,
    db,
    writeSide: events.writeSide,
    logger: logger.child({ part: 'live-reports' }),
    now,
  });
  pipelineWorkers.push(liveReports.worker);
  const outbox = createLedgerOutboxPublisher({
    db,
    kafka,
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
    onError: (error) => logger.warn({ err: error }, 'the ledger outbox could not publish; retrying'),
  });
  outbox.start();
  const syncRequests = startSyncRequestReactor({
    writeSide: events.writeSide,
    db,
    client,
    config,
    logger: logger.child({ reactor: 'sync-requests' }),
  });
  // Integration syncs, purges and unlinks become runs; disconnects and deletes clean up after themselves.
  const integrationJobs = startIntegrationJobReactor({
    writeSide: events.writeSide,
    db,
    client,
    config,
    logger: logger.child({ reactor: 'integration-jobs' }),
  });
  // Metrics jobs of a type with a pipeline (the customers job) become runs on the metrics queue.
  const metricsJobs = startMetricsJobReactor({
    writeSide: events.writeSide,
    db,
    client,
    config,
    logger: logger.child({ reactor: 'metrics-jobs' }),
  });
  // A forecast after every metrics run (each completed sync) of a seller whose forecasting is on.
  const forecastsAfterMetrics = startForecastAfterMetricsReactor({
    writeSide: events.writeSide,
    db,
    client,
    config,
    logger: logger.child({ reactor: 'forecast-after-metrics' }),
  });
  // Report jobs (the gateway's, the scheduled sends', the welcome report's) become runs on the
  // reports queue; tenants' reporting settings become their Temporal Schedules (docs/adr/0038).
  const reportJobs = startReportJobReactor({
    writeSide: events.writeSide,
    db,
    client,
    config,
    logger: logger.child({ reactor: 'report-jobs' }),
  });
  const welcomeReports = startWelcomeReportReactor({
    writeSide: events.writeSide,
    db,
    config,
    logger: logger.child({ reactor: 'welcome-report' }),
  });
  // Whoever connects a platform receives its reports, the welcome report first.
  const connectorRecipients = startConnectorRecipientReactor({
    writeSide: events.writeSide,
    db,
    logger: logger.child({ reactor: 'connector-recipient' }),
  });
  const reportSchedules = startReportScheduleReactor({
    writeSide: events.writeSide,
    db,
    client,
    config,
    logger: logger.child({ reactor: 'report-schedules' }),
  });
  // Plans from the catalogue, and a billing subscription for every tenant (docs/adr/0039-billing.md).
  const billing = await startBilling({
    writeSide: events.writeSide,
    db,
    config,
    logger: logger.child({ part: 'billing' }),
  });
  // The PDF process warms up now, in the background, so the first report after a start does not wait
  // for react-pdf's first renders (docs/adr/0036-report-content.md).
  startPdfProcess().then(
    (warmUp) => logger.info({ warmUp }, 'the PDF process is warm'),
    (error: unknown) =>
      logger.warn({ err: error }, 'the PDF process did not warm up; reports start it again'),
  );
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
  const workers = [worker, ...pipelineWorkers];
  const running = Promise.all(workers.map((w) => w.run()));
  running.catch((error: unknown) =>
    logger.error({ err: error }, 'the Temporal worker stopped with an error'),
  );
  return {
    name: 'worker',
    health: async () =>
      healthReport('worker', [
        // Each dependency by name, so a failing health check says which one is down.
        await check('read store', readStore.ping),
        await check('temporal', () => clientConnection.healthService.check({})),
        await check('temporal workers', () => {
          const stopped = workers.find((w) => w.getState() !== 'RUNNING');
          return stopped ? Promise.reject(new Error(stopped.getState())) : Promise.resolve();
        }),
      ]),
    stop: async () => {
      await syncRequests.stop();
      await integrationJobs.stop();
      await metricsJobs.stop();
      await forecastsAfterMetrics.stop();
      await reportJobs.stop();
      await welcomeReports.stop();
      await connectorRecipients.stop();
      await reportSchedules.stop();
      await billing.stop();
      await liveReports.stop();
      await outbox.stop();
      for (const w of workers) w.shutdown();
      await running.catch(() => undefined);
      await stopPdfProcess();
      reportMailer.close();
      reportObjects.close();
      await feed.disconnect();
      await connection.close();
      await clientConnection.close();
      await events.close();
      await readStore.close();
    },
  };
};
