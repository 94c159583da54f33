import type { Logger } from 'pino';
import { handleCommand } from '../commands/command-handler';
import { allocateId } from '../commands/id-allocator';
import { openEventSource } from '../commands/open-event-source';
import { runWithRequestContext, systemActorId } from '../commands/request-context';
import type { Config } from '../contracts/config';
import { systemActor } from '../domain/actor';
import { tenantDecider } from '../domain/tenant/tenant-decider';
import { sellerDecider } from '../domain/seller/seller-decider';
import { userDecider } from '../domain/user/user-decider';
import { hashPassword } from '../gateway/auth/password-hash';
import { sellerStream, tenantStream, userStream } from '../contracts/stream-ids';

/** The demo company every local run shows (portal.md section 9: the demo client is named Demo Client). */
export const demoTenantName = 'Demo Client';
export const demoUserEmail = 'demo@ledgerwise.local';

/**
 * Seeds a local run (SEED_DEMO): the platform administrator (the first PLATFORM_ADMIN_EMAILS address)
 * and the Demo Client tenant with a demo user who administers it, both signing in with
 * SEED_ADMIN_PASSWORD, and its DEMO seller, which the worker's reactor populates on connection. Every command has a fixed id, so a second start appends nothing new.
 */
export const seedDemo = async (config: Config, logger: Logger): Promise<{ tenantId: number }> => {
  const source = await openEventSource(config);
  try {
    const { store } = source;
    const now = new Date();
    const run = <S, C extends { now: Date }, E extends { type: string; data: unknown }>(
      decider: Parameters<typeof handleCommand<S, C, E>>[0],
      request: { streamId: string; commandId: string; command: C },
    ) =>
      runWithRequestContext({ actor: systemActorId('seed') }, () =>
        handleCommand(decider, request, source.writeSide),
      );
    const id = (category: 'user' | 'tenant', key: string) =>
      runWithRequestContext({ actor: systemActorId('seed') }, () =>
        allocateId(store, { category, commandId: `seed:${key}`, now }),
      );
    const passwordHash = await hashPassword(config.SEED_ADMIN_PASSWORD);

    const register = async (
      key: string,
      person: { email: string; givenName: string; familyName: string },
    ) => {
      const userId = await id('user', key);
      await run(userDecider, {
        streamId: userStream(userId),
        commandId: `seed:${key}:register`,
        command: {
          type: 'RegisterUser',
          data: {
            userId,
            ...person,
            authProvider: 'password',
            passwordHash,
            emailVerified: true,
            emailInUse: false,
          },
          now,
          actor: systemActor,
        },
      });
      return userId;
    };

    const adminEmail = config.PLATFORM_ADMIN_EMAILS[0];
    if (adminEmail)
      await register('admin', { email: adminEmail, givenName: 'Platform', familyName: 'Admin' });
    const demoUserId = await register('demo-user', {
      email: demoUserEmail,
      givenName: 'Dana',
      familyName: 'Demo',
    });
    const tenantId = await id('tenant', 'demo-tenant');
    await run(tenantDecider, {
      streamId: tenantStream(tenantId),
      commandId: 'seed:demo-tenant:create',
      command: {
        type: 'CreateTenant',
        data: {
          tenantId,
          name: demoTenantName,
          classification: 'BUSINESS',
          usageType: 'DEMO',
          businessModel: 'B2B',
        },
        now,
        actor: systemActor,
      },
    });
    await run(userDecider, {
      streamId: userStream(demoUserId),
      commandId: 'seed:demo-user:join',
      command: {
        type: 'JoinCreatedTenant',
        data: { tenantId, tenantClassification: 'BUSINESS' },
        now,
        actor: systemActor,
      },
    });
    // The demo company's books: a DEMO seller, which the worker populates as soon as it is connected.
    const sellerId = await runWithRequestContext({ actor: systemActorId('seed') }, () =>
      allocateId(store, { category: 'seller', commandId: 'seed:demo-seller', now }),
    );
    await run(sellerDecider, {
      streamId: sellerStream(sellerId),
      commandId: 'seed:demo-seller:connect',
      command: {
        type: 'ConnectSeller',
        data: {
          sellerId,
          tenantId,
          provider: 'DEMO',
          companyName: demoTenantName,
          url: null,
          authMethod: 'none',
          authTokenOwner: null,
          credentialsRef: null,
          companyFilePath: null,
          actor: systemActor,
          tenantIsDemo: true,
          tenantHasConnectedSeller: false,
          planAllowsProvider: true,
        },
        now,
      },
    });
    // Forecasting is off for new sellers (an admin turns it on); the demo shows it from the first sync.
    await run(sellerDecider, {
      streamId: sellerStream(sellerId),
      commandId: 'seed:demo-seller:forecasting',
      command: { type: 'SetSellerForecasting', data: { enabled: true }, now },
    });
    logger.info({ tenantId, sellerId, admin: adminEmail, demoUser: demoUserEmail }, 'demo data ready');
    return { tenantId };
  } finally {
    await source.close();
  }
};
