import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParam } from '../../../contracts/api/common';
import {
  BulkSellerSyncRequest,
  BulkSellerSyncResponse,
  SellerSyncQuery,
  SellerSyncResponse,
} from '../../../contracts/api/sellers';
import { isAppError } from '../../../contracts/errors';
import type { SellerSyncMode } from '../../../contracts/events/seller';
import { listAdminSellers, type SellerView } from '../../../projections/sellers/query-sellers';
import { findSeller } from '../../use-cases/sellers/find-seller';
import { requestSellerSync, type RecordedSellerSync } from '../../use-cases/sellers/request-seller-sync';

/**
 * Populate fetches everything of a seller never synced; `reset=1` refetches everything of one that
 * was (Repopulate, Reset for QBD); otherwise a sync fetches the changes (admin.md section 4).
 */
const modeFor = (seller: Pick<SellerView, 'CollectionDate'>, reset: boolean): SellerSyncMode => {
  if (seller.CollectionDate === null) return 'populate';
  return reset ? 'repopulate' : 'sync';
};

const jobOf = (sync: RecordedSellerSync) => ({ sellerId: sync.sellerId, jobId: sync.jobId, mode: sync.mode });

const jobsMessage = (count: number) => `Successfully created ${count} sync job${count === 1 ? '' : 's'}`;

/** Sync requests: each becomes a job (domain/job) that the sync workflow runs. */
export const sellerSyncRoutes: FastifyPluginAsyncZod = (app) => {
  const tags = ['sellers'];

  app.post(
    '/api/sellers/:id/sync',
    {
      config: { access: 'platformAdmin' },
      schema: { tags, params: IdParam, querystring: SellerSyncQuery, response: { 200: SellerSyncResponse } },
    },
    async (request, reply) => {
      const seller = await findSeller(request, request.params.id);
      const reset = request.query.reset === '1' || request.query.reset === 'true';
      const sync = await requestSellerSync(reply, {
        sellerId: seller.Id,
        tenantId: seller.TenantId,
        mode: modeFor(seller, reset),
      });
      return { job: jobOf(sync), message: jobsMessage(1) };
    },
  );

  app.post(
    '/api/sellers/sync',
    {
      config: { access: 'platformAdmin' },
      schema: { tags, body: BulkSellerSyncRequest, response: { 200: BulkSellerSyncResponse } },
    },
    async (request, reply) => {
      const { db, now } = app.services;
      const { provider, active = true } = request.body;
      const page = await listAdminSellers(db, {
        now: now(),
        providers: [provider],
        active,
        readAfter: request.readAfter,
      });
      const jobs: ReturnType<typeof jobOf>[] = [];
      const skipped: { sellerId: number; reason: string }[] = [];
      // One at a time: each seller's refusal (running sync, revoked, QBD) is reported, not fatal.
      for (const seller of page.rows) {
        try {
          const sync = await requestSellerSync(reply, {
            sellerId: seller.Id,
            tenantId: seller.TenantId,
            mode: modeFor(seller, false),
          });
          jobs.push(jobOf(sync));
        } catch (error) {
          if (!isAppError(error) || error.code === 'internal') throw error;
          skipped.push({ sellerId: seller.Id, reason: error.userMessage });
        }
      }
      return { jobs, skipped, message: jobsMessage(jobs.length) };
    },
  );

  return Promise.resolve();
};
