import type { SessionResponse } from '../../contracts/auth';
import type { SellerProvider } from '../../contracts/events/seller';
import { systemActor } from '../../domain/actor';
import { integrationDecider } from '../../domain/integration/integration-decider';
import { recipientDecider } from '../../domain/recipient/recipient-decider';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { userDecider } from '../../domain/user/user-decider';
import { signUp } from './fixtures';
import type { Browser, World } from './gateway-world';
import { integrationStream, recipientStream, sellerStream, userStream } from '../../contracts/stream-ids';

/** Adds a signed-in user to `tenantId` as a plain USER (by the system, no reports) and switches them into it. */
export const joinAsPlainUser = async (
  world: World,
  user: { browser: Browser; session: SessionResponse },
  tenantId: number,
): Promise<void> => {
  await world.run(userDecider, userStream(user.session.user.Id), {
    type: 'JoinTenant',
    data: {
      tenantId,
      role: 'USER',
      classification: 'MEMBER',
      jobTitle: null,
      sendWeekly: false,
      sendMonthly: false,
      inviteId: null,
    },
    now: world.clock.now(),
    actor: systemActor,
  });
  await world.settle();
  const switched = await user.browser.post('/api/auth/switchTenant', { tenantId });
  if (switched.statusCode !== 200) throw new Error(`switchTenant: ${switched.statusCode} ${switched.body}`);
};

/** A new user added to `tenantId` as a plain USER by the system, signed in and switched into it. */
export const plainUserOf = async (
  world: World,
  tenantId: number,
  name: string,
): Promise<{ browser: Browser; session: SessionResponse }> => {
  const user = await signUp(world, { name });
  await joinAsPlainUser(world, user, tenantId);
  return user;
};

let nextSellerId = 960_000;
let nextRecipientId = 960_000;

/** A connected seller of `tenantId`, made with the seller command directly (the sellers routes have their own tests). */
export const sellerOf = async (
  world: World,
  tenantId: number,
  seller: { companyName: string; provider?: SellerProvider },
): Promise<number> => {
  const sellerId = (nextSellerId += 1);
  const provider = seller.provider ?? 'XERO';
  await world.run(sellerDecider, sellerStream(sellerId), {
    type: 'ConnectSeller',
    data: {
      sellerId,
      tenantId,
      provider,
      companyName: seller.companyName,
      url: null,
      authMethod: provider === 'DEMO' ? 'none' : 'oauth2',
      authTokenOwner: null,
      credentialsRef: provider === 'DEMO' ? null : `secrets/seller-${sellerId}`,
      companyFilePath: null,
      actor: systemActor,
      tenantIsDemo: provider === 'DEMO',
      tenantHasConnectedSeller: false,
      planAllowsProvider: true,
    },
    now: world.clock.now(),
  });
  await world.settle();
  return sellerId;
};

/** A user's report subscription to a seller's reports. */
export const recipientOf = async (
  world: World,
  subscription: { tenantId: number; sellerId: number; userId: number },
): Promise<number> => {
  const recipientId = (nextRecipientId += 1);
  await world.run(recipientDecider, recipientStream(recipientId), {
    type: 'SubscribeRecipient',
    data: {
      recipientId,
      tenantId: subscription.tenantId,
      sellerId: subscription.sellerId,
      subscriber: { userId: subscription.userId },
      actor: systemActor,
      subscriberAlreadySubscribed: false,
    },
    now: world.clock.now(),
  });
  await world.settle();
  return recipientId;
};

let nextIntegrationId = 970_000;

/** A Google (cloud) integration account of `tenantId`, as its OAuth flow would connect it, made with the command directly. */
export const googleAccountOf = async (world: World, tenantId: number): Promise<number> => {
  const integrationId = (nextIntegrationId += 1);
  await world.run(integrationDecider, integrationStream(integrationId), {
    type: 'ConnectIntegration',
    data: {
      integrationId,
      tenantId,
      provider: 'GOOGLE',
      productIdentifier: null,
      authMethod: 'oauth2',
      credentialsRef: `secrets/integration-${integrationId}`,
      credentialsOwner: 'owner@example.test',
      url: null,
      actor: systemActor,
      tenantIsDemo: false,
      planAllowsProvider: true,
    },
    now: world.clock.now(),
  });
  await world.settle();
  return integrationId;
};
