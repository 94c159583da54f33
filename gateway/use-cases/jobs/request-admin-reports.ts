import type { FastifyReply } from 'fastify';
import type { Job, ReportsRequest } from '../../../contracts/api/jobs';
import { AppError } from '../../../contracts/errors';
import { usersCollection } from '../../../projections/users/user-view';
import { requireCaller } from '../../plugins/access';
import { namedSellers } from './named-sellers';
import { clientPerformanceWorkflowId } from '../../../workflows/reports/client-performance/client-performance-job';
import { reportJobWorkflowId } from '../../../workflows/reports/report-job';
import { recordJob } from './record-job';
import { unlessReportProcessing } from './report-in-progress';

type SellerReports = Extract<ReportsRequest, { type: 'REPORTS' }>;
type ReportWorkflow = Extract<ReportsRequest, { type: 'WORKFLOW' }>;
type ClientPerformance = Extract<ReportsRequest, { type: 'CLIENT_PERFORMANCE' }>;

/** Report options: one report job per selected seller, none while one of them is still processing. */
const sendSellerReports = async (reply: FastifyReply, options: SellerReports): Promise<Job[]> => {
  const { type: _type, sellerIds, ...parameters } = options;
  const { config } = reply.request.server.services;
  const sellers = await namedSellers(reply.request, sellerIds);
  return unlessReportProcessing(
    reply.request,
    { type: options.frequency, sellerIds: sellers.map((s) => s.Id) },
    async () => {
      const jobs: Job[] = [];
      for (const seller of sellers)
        jobs.push(
          await recordJob(reply, {
            kind: 'report',
            type: options.frequency,
            tenantId: seller.TenantId,
            sellerId: seller.Id,
            parameters: { ...parameters, subscriberIds: parameters.subscriberIds ?? null },
            workflowIdOf: (jobId: number) => reportJobWorkflowId(config, { sellerId: seller.Id, jobId }),
          }),
        );
      return jobs;
    },
  );
};

/** Workflow options: the scheduled send run now, one job per selected seller. */
const runReportWorkflow = async (reply: FastifyReply, options: ReportWorkflow): Promise<Job[]> => {
  const { type: _type, sellerIds, ...parameters } = options;
  const { config } = reply.request.server.services;
  const jobs: Job[] = [];
  for (const seller of await namedSellers(reply.request, sellerIds))
    jobs.push(
      await recordJob(reply, {
        kind: 'report',
        type: 'workflow',
        tenantId: seller.TenantId,
        sellerId: seller.Id,
        parameters,
        workflowIdOf: (jobId: number) => reportJobWorkflowId(config, { sellerId: seller.Id, jobId }),
      }),
    );
  return jobs;
};

/**
 * The advisors' Client Performance report: one job that its workflow (clientPerformanceWorkflow) fans
 * out to the advisors it selects. It concerns no one tenant, so it is recorded in the history of the
 * admin's current one; each advisor's summary is archived in their firm.
 */
const sendClientPerformance = async (reply: FastifyReply, options: ClientPerformance): Promise<Job[]> => {
  const { db, config } = reply.request.server.services;
  const caller = requireCaller(reply.request);
  const { tenantId } = caller;
  if (tenantId === null)
    throw new AppError('conflict', 'Switch to a company first: the request is recorded in its history.');
  if (options.userId !== undefined && !(await (await usersCollection(db)).findOne({ _id: options.userId })))
    throw new AppError('validation', 'User not found.', { properties: { userId: 'Unknown user' } });
  const { type: _type, ...parameters } = options;
  return [
    await recordJob(reply, {
      kind: 'report',
      type: 'CLIENT_PERFORMANCE',
      tenantId,
      sellerId: null,
      // requestedBy: the `admin` option's recipient, the admin asking (by id, never by address).
      parameters: { ...parameters, userId: parameters.userId ?? null, requestedBy: caller.userId },
      workflowIdOf: (jobId: number) => clientPerformanceWorkflowId(config, jobId),
    }),
  ];
};

/** POST /api/reports (platform admins): report options, workflow options or the Client Performance report. */
export const requestAdminReports = (reply: FastifyReply, options: ReportsRequest): Promise<Job[]> => {
  switch (options.type) {
    case 'REPORTS':
      return sendSellerReports(reply, options);
    case 'WORKFLOW':
      return runReportWorkflow(reply, options);
    case 'CLIENT_PERFORMANCE':
      return sendClientPerformance(reply, options);
  }
};
