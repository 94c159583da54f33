import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../commands/command-handler';
import { handleCommand } from '../../commands/command-handler';
import type { Config } from '../../contracts/config';
import { JobEvent } from '../../contracts/events/job';
import type { LedgerPage } from '../../contracts/ledger';
import { jobStream } from '../../contracts/stream-ids';
import type { EventSource } from '../../commands/open-event-source';
import { jobDecider } from '../../domain/job/job-decider';
import { currentCollection } from '../../projections/framework/read-model-versions';
import {
  usersProjection,
  type MembershipDocument,
  type UserDocument,
} from '../../projections/users/users-projection';
import type { ClientPerformanceResult } from '../../workflows/reports/client-performance/client-performance-input';
import { clientPerformanceWorkflowId } from '../../workflows/reports/client-performance/client-performance-job';
import { demoLedger, seedLedgerAndMetrics, seedSeller, seedTenant } from '../reports/report-fixtures';

/**
 * A firm, its advisors and their clients for the Client Performance tests: read models written as the
 * projections leave them (users, memberships, tenants, sellers) and each client's ledger with its
 * metrics made by the real metrics code; and the job recorded as POST /api/reports records it.
 */
export type Person = { userId: number; email: string; given: string; family: string };
export type ClientSeed = {
  tenantId: number;
  sellerId: number;
  name: string;
  currency: 'USD' | 'GBP' | 'EUR';
};

const since = new Date('2024-01-01T00:00:00.000Z');

export const seedUser = async (db: Db, person: Person, firmTenantId: number) => {
  const users = await currentCollection<'users' | 'memberships', UserDocument>(db, usersProjection, 'users');
  const name = `${person.given} ${person.family}`;
  await users.insertOne({
    _id: person.userId,
    position: 1,
    Email: person.email,
    GivenName: person.given,
    FamilyName: person.family,
    Name: name,
    sortName: name.toLowerCase(),
    JobTitle: null,
    PrimaryClassification: 'ADVISOR',
    signupProvider: null,
    hasPassword: true,
    Logins: 1,
    LastLogin: null,
    LastLoginMethod: null,
    createdAt: since,
    DefaultPartnerTenantId: firmTenantId,
    EmailVerified: true,
    PasswordResetRequired: false,
    deleted: false,
    deletedAt: null,
  });
};

/** MEMBER: the user works in the firm; ADVISOR: the tenant is one of the user's clients. */
export const seedMembership = async (
  db: Db,
  membership: { userId: number; tenantId: number; classification: 'ADVISOR' | 'MEMBER' },
) => {
  const memberships = await currentCollection<'users' | 'memberships', MembershipDocument>(
    db,
    usersProjection,
    'memberships',
  );
  await memberships.insertOne({
    _id: `${membership.userId}:${membership.tenantId}`,
    position: 1,
    userId: membership.userId,
    tenantId: membership.tenantId,
    Status: 'ACTIVE',
    Role: 'ADMIN',
    Classification: membership.classification,
    JobTitle: 'Advisor',
    SendWeekly: true,
    SendMonthly: true,
    InviteId: null,
    joinedAt: since,
    userDeleted: false,
  });
};

/** A client company with a connected seller whose ledger runs to `asOf`, metrics computed. */
export const seedClient = async (db: Db, client: ClientSeed, asOf: Date): Promise<LedgerPage> => {
  await seedTenant(db, { tenantId: client.tenantId, name: client.name, currency: client.currency });
  await seedSeller(db, {
    sellerId: client.sellerId,
    tenantId: client.tenantId,
    companyName: `${client.name} Trading`,
    provider: 'XERO',
  });
  const ledger = demoLedger(
    client.sellerId,
    { seed: client.sellerId, startDate: '2025-09-01', invoicesPerYear: 240 },
    asOf,
  );
  await seedLedgerAndMetrics(db, client, ledger, { asOf });
  return ledger;
};

/** A firm, its people (members) and each advisor's clients. */
export const seedFirm = async (
  db: Db,
  firm: { tenantId: number; name: string },
  people: readonly { person: Person; clientTenantIds: readonly number[] }[],
) => {
  await seedTenant(db, { tenantId: firm.tenantId, name: firm.name, classification: 'FIRM' });
  for (const { person, clientTenantIds } of people) {
    await seedUser(db, person, firm.tenantId);
    await seedMembership(db, { userId: person.userId, tenantId: firm.tenantId, classification: 'MEMBER' });
    for (const tenantId of clientTenantIds)
      await seedMembership(db, { userId: person.userId, tenantId, classification: 'ADVISOR' });
  }
};

/** A Client Performance job as POST /api/reports records it (no seller), under the workflow id it names. */
export const recordClientPerformanceJob = async (
  deps: { writeSide: CommandHandlerDeps; config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'> },
  job: { jobId: number; tenantId: number; requestedBy: number; options?: Record<string, boolean | number> },
) => {
  await handleCommand(
    jobDecider,
    {
      streamId: jobStream(job.jobId),
      commandId: `client-performance-test-${clientPerformanceWorkflowId(deps.config, job.jobId)}`,
      command: {
        type: 'CreateJob',
        now: new Date(),
        data: {
          jobId: job.jobId,
          kind: 'report',
          tenantId: job.tenantId,
          sellerId: null,
          parameters: {
            type: 'CLIENT_PERFORMANCE',
            excludeAdmins: false,
            hasSellers: false,
            dryRun: false,
            admin: false,
            userId: null,
            requestedBy: job.requestedBy,
            ...job.options,
          },
          workflowId: clientPerformanceWorkflowId(deps.config, job.jobId),
        },
      },
    },
    deps.writeSide,
  );
};

export const jobEventsOf = async (events: EventSource, jobId: number): Promise<JobEvent[]> =>
  (await events.store.readStream(jobStream(jobId))).map((event) =>
    JobEvent.parse({ type: event.type, data: event.data }),
  );

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The job's result once it completed (a failure throws with its reason). */
export const completedJob = async (
  events: EventSource,
  jobId: number,
): Promise<{ result: ClientPerformanceResult; events: JobEvent[] }> => {
  for (let attempt = 0; attempt < 1200; attempt += 1) {
    const jobEvents = await jobEventsOf(events, jobId);
    const ending = jobEvents.find((e) => e.type === 'JobCompleted' || e.type === 'JobFailed');
    if (ending?.type === 'JobFailed') throw new Error(`job ${jobId} failed: ${ending.data.reason}`);
    if (ending?.type === 'JobCompleted')
      return { result: ending.data.result as unknown as ClientPerformanceResult, events: jobEvents };
    await sleep(250);
  }
  throw new Error(`job ${jobId} never finished`);
};
