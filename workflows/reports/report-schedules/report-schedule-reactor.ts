import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  type Client,
  type ScheduleOptionsStartWorkflowAction,
} from '@temporalio/client';
import type { Config } from '../../../contracts/config';
import type { RecordedEvent } from '../../../contracts/events/envelope';
import { tenantStream } from '../../../contracts/stream-ids';
import { tenantDecider } from '../../../domain/tenant/tenant-decider';
import type { TenantState } from '../../../domain/tenant/tenant';
import { startCheckpointedReactor, type ReactorDeps } from '../../checkpointed-reactor';
import { TenantIdKey } from '../../search-attributes';
import { readState } from '../../sync/system-commands';
import { taskQueues } from '../../task-queues';
import type { scheduledReportsWorkflow } from '../workflows';
import {
  reportScheduleId,
  reportScheduleShapes,
  scheduledFrequencies,
  type ReportScheduleShape,
} from './schedule-spec';

type TemporalTarget = { client: Client; config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'> };

type ScheduleReactorDeps = ReactorDeps & TemporalTarget;

/** The tenant events that change what its schedules should be. */
export const scheduleEventTypes = [
  'TenantCreated',
  'TenantReportingSettingsChanged',
  'TenantDisabled',
  'TenantRestored',
  'TenantPurged',
] as const;

/** A send missed while Temporal was down still goes out within this window, else waits for the next. */
const catchupWindow = '12 hours';

const actionOf = (
  target: TemporalTarget,
  tenantId: number,
  shape: ReportScheduleShape,
): ScheduleOptionsStartWorkflowAction<typeof scheduledReportsWorkflow> => ({
  type: 'startWorkflow',
  workflowType: 'scheduledReportsWorkflow',
  // The schedule appends the scheduled time: `<schedule id>-2026-11-24T07:00:00Z`.
  workflowId: reportScheduleId(target.config, { tenantId, frequency: shape.frequency }),
  taskQueue: taskQueues(target.config).reports,
  args: [{ tenantId, frequency: shape.frequency }],
  typedSearchAttributes: [{ key: TenantIdKey, value: tenantId }],
  // A send no worker picked up within a day is stale (the next one is due soon): it ends unsent.
  workflowExecutionTimeout: '1 day',
});

/** Creates or updates one schedule to match its shape (an upsert: any number of times, same result). */
const upsertSchedule = async (
  target: TemporalTarget,
  tenantId: number,
  shape: ReportScheduleShape,
): Promise<'created' | 'updated'> => {
  const scheduleId = reportScheduleId(target.config, { tenantId, frequency: shape.frequency });
  const action = actionOf(target, tenantId, shape);
  const handle = target.client.schedule.getHandle(scheduleId);
  try {
    await handle.update(() => ({
      spec: shape.spec,
      action,
      policies: { overlap: 'SKIP', catchupWindow },
      state: { paused: shape.paused, note: shape.note },
    }));
    return 'updated';
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
  }
  try {
    await target.client.schedule.create({
      scheduleId,
      spec: shape.spec,
      action,
      policies: { overlap: 'SKIP', catchupWindow },
      state: { paused: shape.paused, note: shape.note },
      typedSearchAttributes: [{ key: TenantIdKey, value: tenantId }],
    });
    return 'created';
  } catch (error) {
    // Created meanwhile by another copy of the worker: make it match.
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    return upsertSchedule(target, tenantId, shape);
  }
};

const deleteSchedules = async (target: TemporalTarget, tenantId: number) => {
  for (const frequency of scheduledFrequencies)
    try {
      await target.client.schedule
        .getHandle(reportScheduleId(target.config, { tenantId, frequency }))
        .delete();
    } catch (error) {
      if (!(error instanceof ScheduleNotFoundError)) throw error;
    }
};

/**
 * Makes a tenant's schedules match its current state: the reporting settings' days, zone and disabled
 * frequencies (paused); a disabled tenant's schedules paused; a purged one's deleted. It reads the
 * tenant's state rather than the event, so a replayed or late event converges on the latest settings.
 */
export const reconcileTenantSchedules = async (
  target: TemporalTarget,
  tenantId: number,
  tenant: TenantState,
): Promise<'deleted' | ('created' | 'updated')[]> => {
  if (tenant.status === 'none' || tenant.status === 'purged') {
    await deleteSchedules(target, tenantId);
    return 'deleted';
  }
  const shapes = reportScheduleShapes(tenant.reporting).map((shape) =>
    tenant.status === 'disabled' ? { ...shape, paused: true, note: 'The company is disabled.' } : shape,
  );
  const outcomes: ('created' | 'updated')[] = [];
  for (const shape of shapes) outcomes.push(await upsertSchedule(target, tenantId, shape));
  return outcomes;
};

const tenantIdOf = (event: RecordedEvent): number | null => {
  const data = event.data as { TenantId?: unknown };
  return typeof data.TenantId === 'number' ? data.TenantId : null;
};

/**
 * Keeps every tenant's weekly and monthly Temporal Schedules in step with its reporting settings
 * (architecture.md, workflows), from its own checkpoint: created with the tenant, moved when a day or
 * the time zone changes, paused while a frequency's emails or the tenant are disabled, deleted with a
 * purge.
 */
export const startReportScheduleReactor = (
  deps: ScheduleReactorDeps & { retryMs?: number },
): { stop: () => Promise<void> } =>
  startCheckpointedReactor(deps, {
    name: 'report-schedules',
    eventTypes: scheduleEventTypes,
    handle: async (event) => {
      const tenantId = tenantIdOf(event);
      if (tenantId === null) return;
      const tenant = await readState(deps.writeSide, tenantDecider, tenantStream(tenantId));
      const outcome = await reconcileTenantSchedules(deps, tenantId, tenant);
      deps.logger.info({ tenantId, event: event.type, outcome }, 'report schedules reconciled');
    },
  });
