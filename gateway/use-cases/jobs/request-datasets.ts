import type { FastifyReply } from 'fastify';
import type { DatasetRequest, Job } from '../../../contracts/api/jobs';
import { AppError } from '../../../contracts/errors';
import { datasetJobWorkflowId } from '../../../workflows/analytics/datasets/dataset-jobs';
import { namedSellers } from './named-sellers';
import { recordJob } from './record-job';

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * admin.md section 9: by default a data set ends on the first day of two months ago and starts
 * three years before that day.
 */
export const defaultDatasetRange = (now: Date): { startDate: string; endDate: string } => {
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1));
  const start = new Date(Date.UTC(end.getUTCFullYear() - 3, end.getUTCMonth(), 1));
  return { startDate: isoDay(start), endDate: isoDay(end) };
};

/** POST /api/datasets: one data-set job per selected seller (each downloads its own file). */
export const requestDatasets = async (reply: FastifyReply, request: DatasetRequest): Promise<Job[]> => {
  const { config, now } = reply.request.server.services;
  const defaults = defaultDatasetRange(now());
  const startDate = request.startDate ?? defaults.startDate;
  const endDate = request.endDate ?? defaults.endDate;
  const properties: Record<string, string> = {};
  if (startDate > endDate) properties.endDate = 'The end date must be on or after the start date.';
  if (request.contentType === 'awsForecast' && request.dataset !== 'ar_forecast_aiml')
    properties.contentType = 'awsForecast is available for the ar_forecast_aiml data set only.';
  if (Object.keys(properties).length > 0)
    throw new AppError('validation', Object.values(properties).join('\n'), { properties });
  const jobs: Job[] = [];
  for (const seller of await namedSellers(reply.request, request.sellerIds))
    jobs.push(
      await recordJob(reply, {
        kind: 'dataset',
        type: request.dataset,
        tenantId: seller.TenantId,
        sellerId: seller.Id,
        parameters: { contentType: request.contentType, startDate, endDate },
        workflowIdOf: (jobId: number) => datasetJobWorkflowId(config, { sellerId: seller.Id, jobId }),
      }),
    );
  return jobs;
};
