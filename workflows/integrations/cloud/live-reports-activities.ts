import { ApplicationFailure } from '@temporalio/common';
import { Context, heartbeat } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../../commands/command-handler';
import type { Config } from '../../../contracts/config';
import type { ManagedReportType } from '../../../contracts/events/job';
import { integrationStream, jobStream } from '../../../contracts/stream-ids';
import { integrationDecider } from '../../../domain/integration/integration-decider';
import { isFinished, managedReportKey } from '../../../domain/job/job';
import { jobDecider } from '../../../domain/job/job-decider';
import { findManagedReport } from '../../../projections/reports/query-reports';
import { failureTypes, userFailure } from '../../connectors/shared/connector-failure';
import { readSheetContext } from '../../reports/sheets/sheet-context';
import { readState, runSystemCommand, type SystemCommandContext } from '../../sync/system-commands';
import { reconnectMessage, type CloudHttp, type IntegrationAccessToken } from './cloud-http';
import { writeGoogleSpreadsheet } from './google-sheets-writer';
import {
  liveReportKey,
  liveReportStages,
  type LiveReportsResult,
  type LiveReportsStep,
  type LiveReportWritten,
} from './live-reports-input';
import { loadLiveArForecastSheet, loadLiveCustomerSheet, xlsxOf, type LiveWorkbook } from './live-sheets';
import { writeOneDriveWorkbook } from './onedrive-writer';

export type LiveReportsDeps = {
  db: Db;
  writeSide: CommandHandlerDeps;
  now: () => Date;
  config: Pick<
    Config,
    | 'GOOGLE_SHEETS_API_URL'
    | 'GOOGLE_DRIVE_API_URL'
    | 'MICROSOFT_GRAPH_API_URL'
    | 'CONNECTOR_MAX_RETRY_WAIT_SECONDS'
  >;
  /** The integration's access tokens (core's integration-tokens.ts provides them). */
  tokensFor: (integrationId: number) => Promise<IntegrationAccessToken>;
  /** Awaits the forecast after the same metrics run; without a client the refresh does not wait. */
  client?: Client;
  fetch?: typeof fetch;
  /** How long a refresh waits for that forecast before writing the forecast it has. */
  forecastWaitMs?: number;
};

const platformOf = { GOOGLE: 'Google', MICROSOFT: 'Microsoft' } as const;

const contextOf = (deps: LiveReportsDeps, step: LiveReportsStep): SystemCommandContext => ({
  writeSide: deps.writeSide,
  workflowId: step.workflowId,
  tenantId: step.tenantId,
  process: 'live-reports',
});

/** The integration must still be connected, active and trusted: else the job ends saying so. */
const requireUsable = async (deps: LiveReportsDeps, step: LiveReportsStep) => {
  const account = await readState(deps.writeSide, integrationDecider, integrationStream(step.integrationId));
  if (account.status !== 'known' || account.tenantId !== step.tenantId)
    throw userFailure(
      'The integration was deleted: its live reports are no longer refreshed.',
      failureTypes.refused,
    );
  if (account.credentialsRef === null)
    throw userFailure(
      'The integration was disconnected: its live reports are no longer refreshed.',
      failureTypes.noCredentials,
    );
  if (account.credentialsStatus !== 'VALID')
    throw userFailure(reconnectMessage(platformOf[step.provider]), failureTypes.revoked);
  if (!account.active)
    throw userFailure(
      'The integration is inactive: activate it to refresh its live reports.',
      failureTypes.refused,
    );
};

const loadWorkbook = async (
  deps: LiveReportsDeps,
  step: LiveReportsStep,
  type: ManagedReportType,
): Promise<{
  workbook: LiveWorkbook;
  currency: Awaited<ReturnType<typeof readSheetContext>>['currency'];
} | null> => {
  const context = await readSheetContext(deps.db, step.sellerId);
  const asOf = deps.now();
  const workbook =
    type === 'CUSTOMER_SHEET'
      ? await loadLiveCustomerSheet(deps.db, context, asOf)
      : await loadLiveArForecastSheet(deps.db, context, asOf);
  return workbook ? { workbook, currency: context.currency } : null;
};

export const createLiveReportsActivities = (deps: LiveReportsDeps) => {
  const progress = async (
    step: LiveReportsStep,
    { stage, done, total }: { stage: string; done: number; total: number | null },
  ) => {
    await runSystemCommand(contextOf(deps, step), jobDecider, {
      streamId: jobStream(step.jobId),
      step: `progress:${stage}:${done}`,
      command: { type: 'RecordJobProgress', now: deps.now(), data: { stage, done, total } },
    });
  };

  return {
    /** Starts the job, refusing an integration that can no longer be written with. */
    async beginLiveReports(step: LiveReportsStep): Promise<void> {
      const job = await readState(deps.writeSide, jobDecider, jobStream(step.jobId));
      if (job.status === 'none') throw ApplicationFailure.nonRetryable(`job ${step.jobId} is not recorded`);
      if (isFinished(job.status)) throw ApplicationFailure.nonRetryable(`job ${step.jobId} already ended`);
      await runSystemCommand(contextOf(deps, step), jobDecider, {
        streamId: jobStream(step.jobId),
        step: 'start-job',
        command: { type: 'StartJob', now: deps.now(), data: {} },
      });
      await requireUsable(deps, step);
    },

    /**
     * Waits (heartbeating) for the forecast run after the same metrics run, so the AR forecast sheet
     * shows it; a forecast that failed, or takes longer than forecastWaitMs, leaves the last one.
     */
    async awaitForecast(step: LiveReportsStep): Promise<void> {
      if (!deps.client || step.forecastWorkflowId === null) return;
      await progress(step, { stage: liveReportStages.waiting, done: 0, total: null });
      const handle = deps.client.workflow.getHandle(step.forecastWorkflowId);
      const beat = setInterval(() => heartbeat(), 5_000);
      let timer: NodeJS.Timeout | undefined;
      try {
        // A forecast that failed or was never started (not found) leaves the last forecast.
        await Promise.race([
          handle.result().catch(() => undefined),
          new Promise((resolve) => {
            timer = setTimeout(resolve, deps.forecastWaitMs ?? 10 * 60_000);
          }),
          new Promise((resolve) => Context.current().cancellationSignal.addEventListener('abort', resolve)),
        ]);
      } finally {
        clearInterval(beat);
        clearTimeout(timer);
      }
    },

    /**
     * Writes one live report into its file (the same one as last time) and records it on the job.
     * A refused token marks the integration INVALID and fails the job asking to reconnect.
     */
    async writeLiveReport(
      step: LiveReportsStep & { type: ManagedReportType; index: number },
    ): Promise<LiveReportWritten> {
      const { type } = step;
      await progress(step, { stage: liveReportStages.writing, done: step.index, total: step.types.length });
      const job = await readState(deps.writeSide, jobDecider, jobStream(step.jobId));
      if (job.status === 'none') throw ApplicationFailure.nonRetryable(`job ${step.jobId} is not recorded`);
      const recorded = job.managed[managedReportKey(step.integrationId, type, step.sellerId)];
      await requireUsable(deps, step);
      const loaded = await loadWorkbook(deps, step, type);
      if (!loaded) return null;
      const http: CloudHttp = {
        platform: platformOf[step.provider],
        tokens: await deps.tokensFor(step.integrationId),
        maxRetryWaitMs: deps.config.CONNECTOR_MAX_RETRY_WAIT_SECONDS * 1000,
        ...(deps.fetch ? { fetch: deps.fetch } : {}),
      };
      // The file of the last refresh; a retried attempt after its write finds the job's own record.
      const known = recorded ?? (await findManagedReport(deps.db, { ...step, type }))?.fileId ?? null;
      const key = liveReportKey(step, type);
      let file;
      try {
        file =
          step.provider === 'GOOGLE'
            ? await writeGoogleSpreadsheet(
                {
                  http,
                  sheetsApiUrl: deps.config.GOOGLE_SHEETS_API_URL,
                  driveApiUrl: deps.config.GOOGLE_DRIVE_API_URL,
                  onRows: () => Promise.resolve(heartbeat()),
                },
                { key, knownFileId: known, workbook: loaded.workbook, currency: loaded.currency },
              )
            : await writeOneDriveWorkbook(
                { http, graphApiUrl: deps.config.MICROSOFT_GRAPH_API_URL },
                {
                  knownFileId: known,
                  // The path is found again only for a write that was not recorded: the seller id keeps
                  // two companies of one name (two sellers of one tenant) in two files.
                  fileName: `${loaded.workbook.displayName} (company ${step.sellerId})`,
                  bytes: await xlsxOf(loaded.workbook, { currency: loaded.currency }, deps.now()),
                },
              );
      } catch (error) {
        if (!(error instanceof ApplicationFailure && error.type === failureTypes.revoked)) throw error;
        // The provider's words go on the account (admin tables); the job says what to do.
        await runSystemCommand(contextOf(deps, step), integrationDecider, {
          streamId: integrationStream(step.integrationId),
          step: 'credentials-invalid',
          command: {
            type: 'MarkIntegrationCredentialsInvalid',
            now: deps.now(),
            data: { credentialsStatus: 'INVALID', reason: error.message },
          },
        });
        throw userFailure(reconnectMessage(http.platform), failureTypes.revoked);
      }
      await runSystemCommand(contextOf(deps, step), jobDecider, {
        streamId: jobStream(step.jobId),
        step: `managed:${type}`,
        command: {
          type: 'RecordManagedReport',
          now: deps.now(),
          data: {
            sellerId: step.sellerId,
            integrationId: step.integrationId,
            provider: step.provider,
            type,
            fileId: file.fileId,
            storageUrl: file.storageUrl,
            displayName: loaded.workbook.displayName,
          },
        },
      });
      return { type, ...file };
    },

    /** Ends the job with what was written, or the reason it stopped. */
    async finishLiveReports(
      step: LiveReportsStep & { failure: string | null; result: LiveReportsResult | null },
    ): Promise<void> {
      const job = await readState(deps.writeSide, jobDecider, jobStream(step.jobId));
      if (job.status === 'none' || isFinished(job.status)) return;
      if (step.failure === null)
        await progress(step, {
          stage: liveReportStages.writing,
          done: step.types.length,
          total: step.types.length,
        });
      await runSystemCommand(contextOf(deps, step), jobDecider, {
        streamId: jobStream(step.jobId),
        step: step.failure === null ? 'complete-job' : 'fail-job',
        command:
          step.failure === null
            ? { type: 'CompleteJob', now: deps.now(), data: { result: step.result } }
            : { type: 'FailJob', now: deps.now(), data: { reason: step.failure } },
      });
    },
  };
};

export type LiveReportsActivities = ReturnType<typeof createLiveReportsActivities>;
