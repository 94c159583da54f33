import { createHmac } from 'node:crypto';
import type { EventMetadata } from '../../contracts/events/envelope';
import type { InviteRole } from '../../contracts/events/invite';
import type { SellerProvider } from '../../contracts/events/seller';
import type { TenantClassification, UsageType } from '../../contracts/events/tenant';
import type { MembershipClassification, TenantRole } from '../../contracts/events/user';
import { handleCommand, type CommandHandlerDeps } from '../../commands/command-handler';
import { eventIdFor } from '../../commands/event-id';
import { eventRegistry } from '../../commands/event-registry';
import type { EventStore } from '../../commands/event-store/event-store';
import type { PersonalDataKeyStore } from '../../commands/personal-data-key-store';
import { createPersonalDataProtector } from '../../commands/personal-data';
import { runWithRequestContext } from '../../commands/request-context';
import type { Actor } from '../../domain/actor';
import type { Decider, DomainEvent } from '../../domain/decider';
import type { InviteCommand } from '../../domain/invite/decide';
import { inviteDecider } from '../../domain/invite/invite-decider';
import type { TenantCommand } from '../../domain/tenant/decide';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import type { UserCommand } from '../../domain/user/decide';
import { normaliseEmail } from '../../domain/user/email';
import { userDecider } from '../../domain/user/user-decider';
import { appendOne } from './audit-workload';
import {
  billingStream,
  inviteStream,
  partnerStream,
  recipientStream,
  sellerStream,
  tenantStream,
  userStream,
  type InviteStream,
} from '../../contracts/stream-ids';

export const platformAdmin: Actor = { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };
export const self = (userId: number): Actor => ({
  userId,
  isPlatformAdmin: false,
  tenantRole: null,
  isAdvisor: false,
});
export const tenantAdmin = (userId: number): Actor => ({ ...self(userId), tenantRole: 'ADMIN' });

/**
 * The write side as the gateway will drive it, for read-model tests: the real deciders through
 * handleCommand (personal data encrypted with the test's keys), plus direct appends, with valid
 * payloads, for aggregates whose commands these tests do not need (partners, billing, sellers,
 * recipients).
 */
export const portalCommands = (store: EventStore, keys: PersonalDataKeyStore) => {
  const deps: CommandHandlerDeps = {
    store,
    registry: eventRegistry,
    personalData: createPersonalDataProtector({ keys, registry: eventRegistry }),
  };
  let sequence = 0;
  /** Each command a minute after the one before, from a fixed start. */
  const nextNow = () => new Date(Date.UTC(2026, 0, 5, 9, 0, 0) + (sequence += 1) * 60_000);

  const run = <State, Command extends { now: Date; actor: Actor }, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>,
    streamId: string,
    command: Command,
  ) =>
    runWithRequestContext(
      { actor: command.actor.userId ? `user:${command.actor.userId}` : 'anonymous' },
      () => handleCommand(decider, { streamId, commandId: `command-${sequence}`, command }, deps),
    );

  type Without<C> = C extends unknown ? Omit<C, 'now'> : never;
  const tenant = (tenantId: number, command: Without<TenantCommand>) =>
    run(tenantDecider, tenantStream(tenantId), { ...command, now: nextNow() });
  const user = (userId: number, command: Without<UserCommand>) =>
    run(userDecider, userStream(userId), { ...command, now: nextNow() });
  const invite = (streamId: string, command: Without<InviteCommand>) =>
    run(inviteDecider, streamId, { ...command, now: nextNow() });

  const metadata = (tenantId: number | null): EventMetadata => ({
    tenantId,
    actor: 'user:1',
    ip: '203.0.113.9',
    method: 'POST',
    url: '/api/test',
    body: null,
    requestId: `req-${sequence}`,
    correlationId: `corr-${sequence}`,
    causationId: null,
    time: nextNow().toISOString(),
  });
  /** One event appended as the command side stores it; returns its position. */
  const append = (streamId: string, type: string, data: Record<string, unknown>) => {
    const tenantId =
      typeof data.TenantId === 'number'
        ? data.TenantId
        : typeof data.tenantId === 'number'
          ? data.tenantId
          : null;
    return appendOne(store, keys, {
      id: eventIdFor(`direct-${(sequence += 1)}`, 0),
      streamId,
      type,
      data,
      metadata: metadata(tenantId),
    });
  };

  return {
    tenant,
    user,
    invite,
    append,
    now: nextNow,

    registerUser: (userId: number, person: { email: string; givenName: string; familyName: string }) =>
      user(userId, {
        type: 'RegisterUser',
        actor: { ...self(userId), userId: null },
        data: {
          userId,
          ...person,
          authProvider: 'password',
          passwordHash: 'argon2id$opaque',
          emailVerified: false,
          emailInUse: false,
        },
      }),

    /** A tenant created by a signed-in user who then joins it (welcome modal, new client), or by an admin. */
    createTenant: async (
      tenantId: number,
      fields: {
        name: string;
        classification: TenantClassification;
        usageType?: UsageType;
        partnerId?: number;
        planIdentifier?: string;
        referrer?: string;
        landingPage?: string;
      },
      createdBy: number | null,
    ) => {
      const privileged = createdBy === null || (fields.usageType ?? 'NORMAL') !== 'NORMAL';
      const actor = privileged ? platformAdmin : self(createdBy);
      const result = await tenant(tenantId, { type: 'CreateTenant', actor, data: { tenantId, ...fields } });
      if (createdBy === null) return result;
      return user(createdBy, {
        type: 'JoinCreatedTenant',
        actor: self(createdBy),
        data: { tenantId, tenantClassification: fields.classification },
      });
    },

    /** A tenant admin adds an existing user (the admin users table's add). */
    addMember: (
      userId: number,
      tenantId: number,
      membership: { role: TenantRole; classification?: MembershipClassification; jobTitle?: string | null },
    ) =>
      user(userId, {
        type: 'JoinTenant',
        actor: platformAdmin,
        data: {
          tenantId,
          role: membership.role,
          classification: membership.classification ?? 'MEMBER',
          jobTitle: membership.jobTitle ?? null,
          sendWeekly: true,
          sendMonthly: false,
          inviteId: null,
        },
      }),

    invitePerson: (
      inviteId: string,
      invitation: {
        tenantId: number;
        email: string;
        name: string;
        role: InviteRole;
        classification?: TenantClassification;
      },
    ) =>
      invite(inviteStreamOf(invitation.tenantId, invitation.email), {
        type: 'CreateInvite',
        actor: platformAdmin,
        data: {
          inviteId,
          tenantId: invitation.tenantId,
          email: invitation.email,
          name: invitation.name,
          role: invitation.role,
          jobTitle: null,
          subscribeToReports: true,
          classifyAsAdvisor: false,
          workflow: 'STANDARD',
          tenantClassification: invitation.classification ?? 'BUSINESS',
          tokenHash: testInvitationTokenHash,
        },
      }),

    createPartner: (partnerId: number, tenantId: number, name: string) =>
      append(partnerStream(partnerId), 'PartnerCreated', {
        PartnerId: partnerId,
        TenantId: tenantId,
        Name: name,
        ClientPlanIdentifier: 'growth_client',
        LogoURL: null,
        CreatedAt: nextNow().toISOString(),
      }),

    startSubscription: (
      subscriptionId: number,
      subscription: { tenantId: number; billingTenantId: number; plan: string; trialEndsAt?: Date },
    ) =>
      append(billingStream(subscriptionId), 'BillingSubscriptionStarted', {
        subscriptionId,
        tenantId: subscription.tenantId,
        billingTenantId: subscription.billingTenantId,
        plan: { id: 7, name: subscription.plan.replace(/_/g, ' '), identifier: subscription.plan },
        startedAt: (subscription.trialEndsAt ?? nextNow()).toISOString(),
        paymentStatus: subscription.trialEndsAt ? 'trialing' : 'active',
        paymentMethod: 'card',
        createdAt: nextNow().toISOString(),
      }),

    connectSeller: (sellerId: number, tenantId: number, provider: SellerProvider) =>
      append(sellerStream(sellerId), 'SellerConnected', {
        sellerId,
        tenantId,
        provider,
        companyName: `Company ${sellerId}`,
        url: null,
        authMethod: provider === 'QBD' ? 'web_connector' : 'oauth2',
        authTokenOwner: null,
        credentialsRef: null,
        companyFilePath: null,
        connectedAt: nextNow().toISOString(),
      }),

    deactivateSeller: (sellerId: number) =>
      append(sellerStream(sellerId), 'SellerDeactivated', {
        sellerId,
        deactivatedAt: nextNow().toISOString(),
      }),
    deleteSeller: (sellerId: number) =>
      append(sellerStream(sellerId), 'SellerDeleted', { sellerId, deletedAt: nextNow().toISOString() }),
    disconnectSeller: (sellerId: number) =>
      append(sellerStream(sellerId), 'SellerDisconnected', {
        sellerId,
        disconnectedAt: nextNow().toISOString(),
      }),

    /** A contact subscribed to a seller's reports. */
    subscribeRecipient: (recipientId: number, seller: { sellerId: number; tenantId: number }) =>
      append(recipientStream(recipientId), 'RecipientSubscribed', {
        recipientId,
        ...seller,
        subscriberUserId: null,
        subscriberEmail: `contact${recipientId}@example.com`,
        subscriberGivenName: 'Casey',
        subscriberFamilyName: `Contact ${recipientId}`,
        subscriberJobTitle: null,
        state: 'ACTIVE',
        sendWeekly: true,
        sendMonthly: false,
        subscribedAt: nextNow().toISOString(),
      }),
    deactivateRecipient: (recipientId: number) =>
      append(recipientStream(recipientId), 'RecipientDeactivated', {
        recipientId,
        state: 'INACTIVE',
        deactivatedAt: nextNow().toISOString(),
      }),
    deleteRecipient: (recipientId: number) =>
      append(recipientStream(recipientId), 'RecipientDeleted', {
        recipientId,
        deletedAt: nextNow().toISOString(),
      }),
  };
};

export type PortalCommands = ReturnType<typeof portalCommands>;

/** What every invitation of these tests records as its link token's hash. */
export const testInvitationTokenHash = 'hash-of-a-test-invitation-token-aaaaaaaaaa';

/** The invite stream key of docs/adr/0010-aggregate-design.md, with a test key. */
export const inviteStreamOf = (tenantId: number, email: string): InviteStream =>
  inviteStream(tenantId, createHmac('sha256', 'test-invite-key').update(normaliseEmail(email)).digest('hex'));
