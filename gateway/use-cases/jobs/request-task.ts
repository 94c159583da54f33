import type { FastifyReply } from 'fastify';
import type { Job, TaskRequest } from '../../../contracts/api/jobs';
import { AppError } from '../../../contracts/errors';
import { listAdminSellers } from '../../../projections/sellers/query-sellers';
import { tenantSummaries } from '../../../projections/tenant-lookup';
import { moveIndirectCustomer } from './move-indirect-customer';
import { requestSellerSync } from '../sellers/request-seller-sync';

type UpdateDemoSeller = Extract<TaskRequest, { name: 'update_demo_seller' }>;

/** Update Demo Seller: a task job per DEMO seller of a demo tenant (normally the one Demo Client). */
const updateDemoSeller = async (reply: FastifyReply, task: UpdateDemoSeller): Promise<Job[]> => {
  const { db, now } = reply.request.server.services;
  const { rows } = await listAdminSellers(db, {
    now: now(),
    providers: ['DEMO'],
    readAfter: reply.request.readAfter,
  });
  const tenants = await tenantSummaries(
    db,
    rows.map((seller) => seller.TenantId),
  );
  const demoSellers = rows.filter((seller) => tenants.get(seller.TenantId)?.UsageType === 'DEMO');
  if (demoSellers.length === 0) throw new AppError('conflict', 'There is no demo seller to update.');
  // A real sync of each demo seller up to today (DEMO generates the days since its last sync).
  const jobs: Job[] = [];
  for (const seller of demoSellers) {
    const sync = await requestSellerSync(reply, {
      sellerId: seller.Id,
      tenantId: seller.TenantId,
      mode: seller.CollectionDate === null ? 'populate' : 'sync',
      onlyFetch: task.onlyFetch,
      type: task.name,
    });
    jobs.push(sync.job);
  }
  return jobs;
};

/** POST /api/tasks (platform admins). */
export const requestTask = (reply: FastifyReply, task: TaskRequest): Promise<Job[]> => {
  switch (task.name) {
    case 'update_demo_seller':
      return updateDemoSeller(reply, task);
    case 'moveIndirectCustomer':
      return moveIndirectCustomer(reply, task);
  }
};
