import type { Db } from 'mongodb';
import type { Config } from '../../../contracts/config';
import { tenantsCollection } from '../../../projections/tenants/tenant-view';
import { membershipsCollection } from '../../../projections/users/membership-counts';
import type { UserDocument } from '../../../projections/users/users-projection';
import { usersCollection } from '../../../projections/users/user-view';
import {
  CLIENT_PERFORMANCE_PDF_LIMIT,
  gatherClientPerformanceData,
  NoClientsToReportError,
} from '../report-data/client-performance-data';
import type {
  AdvisorSkip,
  ClientPerformanceOptions,
  ClientPerformancePlan,
  PlannedAdvisor,
} from './client-performance-input';

/** Why an advisor gets no report: shown per advisor in the job's result. */
export const advisorSkips = {
  noClients: 'There are no clients with a connected platform to report on.',
  userGone: 'The user was not found.',
  noEmail: 'The recipient has no email address.',
  demo: 'Demo addresses never receive email.',
  requesterGone: 'The admin who asked for the reports was not found.',
} as const;

type Person = Pick<UserDocument, '_id' | 'Email' | 'EmailVerified' | 'DefaultPartnerTenantId' | 'deleted'>;

const personFields = { _id: 1, Email: 1, EmailVerified: 1, DefaultPartnerTenantId: 1, deleted: 1 } as const;

/** A platform admin as the gateway decides it (gateway/plugins/access.ts): a listed, verified address. */
const isPlatformAdmin = (person: Person, adminEmails: readonly string[]) =>
  person.EmailVerified && adminEmails.includes(person.Email.trim().toLowerCase());

/**
 * The advisors: `userId` alone (any user: their clients page decides what they cover), else every
 * undeleted user with an active membership in an active firm (classification FIRM), by id.
 */
const advisorsOf = async (db: Db, userId: number | null): Promise<Person[]> => {
  const users = await usersCollection(db);
  if (userId !== null)
    return users.find({ _id: userId, deleted: false }, { projection: personFields }).toArray();
  const firms = await (
    await tenantsCollection(db)
  )
    .find({ Classification: 'FIRM', status: 'active' }, { projection: { _id: 1 } })
    .toArray();
  if (firms.length === 0) return [];
  const members = await (
    await membershipsCollection(db)
  )
    .find(
      { tenantId: { $in: firms.map((firm) => firm._id) }, Status: 'ACTIVE', userDeleted: false },
      { projection: { userId: 1 } },
    )
    .toArray();
  const ids = [...new Set(members.map((member) => member.userId))];
  if (ids.length === 0) return [];
  return users
    .find({ _id: { $in: ids }, deleted: false }, { projection: personFields })
    .sort({ _id: 1 })
    .toArray();
};

/** How many clients an advisor's summary covers as of the report's date (0 when none qualifies). */
export const coveredClients = async (db: Db, userId: number, asOf: Date): Promise<number | null> => {
  try {
    const data = await gatherClientPerformanceData(db, { advisorUserId: userId, asOf });
    return data === null ? null : data.clients.length;
  } catch (error) {
    if (error instanceof NoClientsToReportError) return 0;
    throw error;
  }
};

/** Why an address cannot receive the report, or null when it can. */
export const unmailable = (email: string, isDemoRecipient: (email: string) => boolean): string | null => {
  if (email.trim() === '') return advisorSkips.noEmail;
  if (isDemoRecipient(email)) return advisorSkips.demo;
  return null;
};

/**
 * Whom a Client Performance job reports on and whom it sends to (docs/adr/0038, Client Performance):
 * the advisors the options select, each with their covered clients counted now; an advisor with none
 * is skipped with the reason (or, with hasSellers, left out), as is one whose recipient cannot be
 * mailed. `onAdvisor` is called per advisor counted (the activity heartbeats there).
 */
export const planClientPerformance = async (
  deps: {
    db: Db;
    config: Pick<Config, 'PLATFORM_ADMIN_EMAILS'>;
    isDemoRecipient: (email: string) => boolean;
  },
  request: { tenantId: number; asOf: Date; options: ClientPerformanceOptions; onAdvisor?: () => void },
): Promise<ClientPerformancePlan> => {
  const { db } = deps;
  const { options } = request;
  const adminEmails = deps.config.PLATFORM_ADMIN_EMAILS.map((email) => email.trim().toLowerCase());
  const advisors = (await advisorsOf(db, options.userId)).filter(
    (person) => !(options.excludeAdmins && isPlatformAdmin(person, adminEmails)),
  );
  const skipped: AdvisorSkip[] = [];
  if (options.userId !== null && advisors.length === 0)
    return { advisors: [], skipped: [{ userId: options.userId, reason: advisorSkips.userGone }] };

  let requester: Person | null = null;
  if (options.admin) {
    requester =
      options.requestedBy === null
        ? null
        : ((await (
            await usersCollection(db)
          ).findOne({ _id: options.requestedBy, deleted: false }, { projection: personFields })) ?? null);
    if (requester === null)
      return {
        advisors: [],
        skipped: advisors.map((person) => ({ userId: person._id, reason: advisorSkips.requesterGone })),
      };
  }

  const firmIds = [
    ...new Set(
      advisors.flatMap((person) =>
        person.DefaultPartnerTenantId === null ? [] : [person.DefaultPartnerTenantId],
      ),
    ),
  ];
  const activeFirms = new Set(
    firmIds.length === 0
      ? []
      : (
          await (
            await tenantsCollection(db)
          )
            .find({ _id: { $in: firmIds }, status: 'active' }, { projection: { _id: 1 } })
            .toArray()
        ).map((tenant) => tenant._id),
  );

  const planned: PlannedAdvisor[] = [];
  for (const person of advisors) {
    request.onAdvisor?.();
    const clients = (await coveredClients(db, person._id, request.asOf)) ?? 0;
    if (clients === 0) {
      if (!options.hasSellers) skipped.push({ userId: person._id, reason: advisorSkips.noClients });
      continue;
    }
    const recipient = requester ?? person;
    const cannot = unmailable(recipient.Email, deps.isDemoRecipient);
    if (cannot !== null) {
      skipped.push({ userId: person._id, reason: cannot });
      continue;
    }
    const firm = person.DefaultPartnerTenantId;
    planned.push({
      userId: person._id,
      recipientUserId: recipient._id,
      archiveTenantId: firm !== null && activeFirms.has(firm) ? firm : request.tenantId,
      clients,
      format: clients >= CLIENT_PERFORMANCE_PDF_LIMIT ? 'xlsx' : 'pdf',
    });
  }
  return { advisors: planned, skipped };
};
