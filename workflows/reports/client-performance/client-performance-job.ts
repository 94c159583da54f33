import { z } from 'zod';
import type { Config } from '../../../contracts/config';
import type { JobCreated } from '../../../contracts/events/job';
import type { ClientPerformanceInput } from './client-performance-input';

type RecordedJob = z.infer<typeof JobCreated>['data'];

/**
 * The run of a Client Performance job, qualified by the deployment's prefix as reportJobWorkflowId
 * is (job ids restart at 1 in a fresh event store). POST /api/reports records the job under it.
 */
export const clientPerformanceWorkflowId = (
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>,
  jobId: number,
): string => `${config.TEMPORAL_TASK_QUEUE_PREFIX}-report-client-performance-job-${jobId}`;

/**
 * One advisor's report job, made and ended by its parent's run (no run of its own): its id keys the
 * commands of its stream, so it must differ per advisor.
 */
export const advisorJobWorkflowId = (parentWorkflowId: string, userId: number): string =>
  `${parentWorkflowId}-advisor-${userId}`;

const flag = z.boolean().optional().default(false);
const UserId = z.int().positive();

/** The parameters POST /api/reports records (contracts/api/jobs.ts ClientPerformanceReportRequest). */
const ClientPerformanceParameters = z.object({
  type: z.literal('CLIENT_PERFORMANCE'),
  excludeAdmins: flag,
  hasSellers: flag,
  dryRun: flag,
  admin: flag,
  userId: UserId.nullable().optional(),
  requestedBy: UserId.nullable().optional(),
});

/**
 * What a recorded job without a seller asks for: a Client Performance run; `advisor` for one
 * advisor's job (its parent's run makes and ends it: nothing to start); null when it is no job this
 * code can run (another type, or parameters it cannot read).
 */
export const clientPerformanceRunOf = (job: RecordedJob): ClientPerformanceInput | 'advisor' | null => {
  if (job.kind !== 'report' || job.sellerId !== null) return null;
  if (job.parameters.type === 'CLIENT_PERFORMANCE' && typeof job.parameters.parentJobId === 'number')
    return 'advisor';
  const parsed = ClientPerformanceParameters.safeParse(job.parameters);
  if (!parsed.success) return null;
  const { excludeAdmins, hasSellers, dryRun, admin, userId, requestedBy } = parsed.data;
  return {
    jobId: job.jobId,
    tenantId: job.tenantId,
    asOf: job.createdAt,
    options: {
      excludeAdmins,
      hasSellers,
      dryRun,
      admin,
      userId: userId ?? null,
      requestedBy: requestedBy ?? null,
    },
  };
};
