import type { FastifyReply } from 'fastify';
import type { Job, TaskRequest } from '../../../contracts/api/jobs';
import { AppError } from '../../../contracts/errors';
import { billingStream, jobStream, tenantStream } from '../../../contracts/stream-ids';
import { billingDecider } from '../../../domain/billing/billing-decider';
import { jobDecider } from '../../../domain/job/job-decider';
import { defaultPlanIdentifier } from '../../../domain/plan/catalogue';
import { tenantDecider } from '../../../domain/tenant/tenant-decider';
import { latestSubscriptionsByTenant } from '../../../projections/billing/query-billing-subscriptions';
import { getPlanByIdentifier } from '../../../projections/plans/query-plans';
import { requireCaller } from '../../plugins/access';
import { executeCommand, loadAggregate } from '../../execute-command';
import { recordJob } from './record-job';

type MoveIndirectCustomer = Extract<TaskRequest, { name: 'moveIndirectCustomer' }>;

/**
 * Move Customer (admin tasks page, docs/adr/0050-move-indirect-customer.md): an indirect customer is a
 * company whose subscription an advisory firm pays (the subscription's BillingTenantId is the firm,
 * shown as Direct: false). Moving it makes it a direct customer: it pays for itself from now on, and
 * a firm's CLIENT plan, which only a firm may pay for, becomes the business default plan (the tenant
 * billing reactor moves the subscription onto it). The advisory partner and the advisors' memberships
 * stay: who advises a company is not who pays. Refusals change nothing; a move is a task job in the
 * moved company's history, completed with what changed.
 */
export const moveIndirectCustomer = async (
  reply: FastifyReply,
  task: MoveIndirectCustomer,
): Promise<Job[]> => {
  const { db, now } = reply.request.server.services;
  const caller = requireCaller(reply.request);
  const tenantId = task.customerId;
  const { state: tenant } = await loadAggregate(reply.request, tenantDecider, tenantStream(tenantId));
  if (tenant.status === 'none' || tenant.status === 'purged')
    throw new AppError('not_found', `Company ${tenantId} was not found.`);
  if (tenant.usageType === 'DEMO') throw new AppError('conflict', 'Disabled for the demo client');
  const found = (await latestSubscriptionsByTenant(db, [tenantId])).get(tenantId);
  if (!found)
    throw new AppError('conflict', `Company ${tenantId} has no subscription: there is no payer to move.`);
  const { state: subscription } = await loadAggregate(
    reply.request,
    billingDecider,
    billingStream(found.subscriptionId),
  );
  if (subscription.status !== 'known')
    throw new AppError('conflict', `Company ${tenantId} has no subscription: there is no payer to move.`);
  const payer = subscription.billingTenantId;
  if (payer === tenantId)
    throw new AppError(
      'conflict',
      `Company ${tenantId} already pays for its own subscription: it is not an indirect customer.`,
    );
  const currentPlan = await getPlanByIdentifier(db, { identifier: subscription.plan.identifier });
  const businessPlan =
    currentPlan?.Classification === 'CLIENT' ? defaultPlanIdentifier(tenant.classification, false) : null;
  if (businessPlan !== null && !(await getPlanByIdentifier(db, { identifier: businessPlan }))?.Active)
    throw new AppError(
      'conflict',
      `The plan ${businessPlan} is not available: the customer cannot be moved.`,
    );

  const job = await recordJob(reply, {
    kind: 'task',
    type: task.name,
    tenantId,
    sellerId: null,
    parameters: { customerId: tenantId },
  });
  const started = await executeCommand(reply, jobDecider, {
    streamId: jobStream(job.Id),
    tenantId,
    command: { type: 'StartJob', data: {}, now: now() },
  });
  await executeCommand(reply, billingDecider, {
    streamId: billingStream(subscription.subscriptionId),
    tenantId,
    command: {
      type: 'UpdateBillingSubscription',
      data: { tenantId, actor: caller.actor, tenantIsDemo: false, billingTenantId: tenantId },
      now: now(),
    },
  });
  if (businessPlan !== null)
    await executeCommand(reply, tenantDecider, {
      streamId: tenantStream(tenantId),
      tenantId,
      command: {
        type: 'ChangeTenantPlan',
        data: { planIdentifier: businessPlan },
        actor: caller.actor,
        now: now(),
      },
    });
  const result = {
    previousBillingTenantId: payer,
    billingTenantId: tenantId,
    previousPlan: subscription.plan.identifier,
    plan: businessPlan ?? subscription.plan.identifier,
  };
  const completed = await executeCommand(reply, jobDecider, {
    streamId: jobStream(job.Id),
    tenantId,
    command: { type: 'CompleteJob', data: { result }, now: now() },
  });
  const startedAt = started.events[0]?.type === 'JobStarted' ? started.events[0].data.startedAt : null;
  const finished = completed.events[0]?.type === 'JobCompleted' ? completed.events[0].data.completedAt : null;
  return [{ ...job, Status: 'completed', Result: result, startedAt, finishedAt: finished }];
};
