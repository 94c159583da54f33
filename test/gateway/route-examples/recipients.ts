import { recipientDecider } from '../../../domain/recipient/recipient-decider';
import { sellerDecider } from '../../../domain/seller/seller-decider';
import type { Cast, RouteExample } from './types';
import { recipientStream, sellerStream } from '../../../contracts/stream-ids';

let nextSellerId = 890_000;
let nextRecipientId = 890_000;
const system = { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };

/** A fresh DEMO seller of tenant A, so each example subscribes without meeting an earlier one. */
const sellerOfA = async (cast: Cast): Promise<number> => {
  const sellerId = (nextSellerId += 1);
  await cast.world.run(sellerDecider, sellerStream(sellerId), {
    type: 'ConnectSeller',
    data: {
      sellerId,
      tenantId: cast.a.tenantId,
      provider: 'DEMO',
      companyName: 'Recipients Example Company',
      url: null,
      authMethod: 'none',
      authTokenOwner: null,
      credentialsRef: null,
      companyFilePath: null,
      actor: system,
      tenantIsDemo: false,
      tenantHasConnectedSeller: false,
      planAllowsProvider: true,
    },
    now: cast.world.clock.now(),
  });
  return sellerId;
};

/** The plain USER of tenant A subscribed to a fresh seller: theirs to change or delete. */
const subscriptionOfUser = async (cast: Cast): Promise<number> => {
  const recipientId = (nextRecipientId += 1);
  await cast.world.run(recipientDecider, recipientStream(recipientId), {
    type: 'SubscribeRecipient',
    data: {
      recipientId,
      tenantId: cast.a.tenantId,
      sellerId: await sellerOfA(cast),
      subscriber: { userId: cast.a.user.userId },
      actor: system,
      subscriberAlreadySubscribed: false,
    },
    now: cast.world.clock.now(),
  });
  await cast.world.settle();
  return recipientId;
};

export const examples: RouteExample[] = [
  {
    method: 'GET',
    route: '/api/subscriptions',
    access: 'member',
    happy: () => Promise.resolve({ url: '/api/subscriptions?state=ACTIVE' }),
    badInput: () => Promise.resolve({ url: '/api/subscriptions?state=SOMETIMES' }),
    otherTenant: {
      sameForEveryTenant: 'lists the caller’s current tenant only; scope=all needs a platform admin',
    },
  },
  {
    method: 'POST',
    route: '/api/subscriptions',
    access: 'member',
    happy: async (cast) => {
      const sellerId = await sellerOfA(cast);
      await cast.world.settle();
      return { url: '/api/subscriptions', body: { userId: cast.a.user.userId, sellerId, SendMonthly: true } };
    },
    badInput: () =>
      Promise.resolve({ url: '/api/subscriptions', body: { email: 'nobody', sellerId: 'one' } }),
    otherTenant: {
      sameForEveryTenant: 'subscribes to a seller of the caller’s current tenant (others are 422)',
    },
  },
  {
    method: 'PATCH',
    route: '/api/subscriptions/:id',
    access: 'member',
    happy: async (cast) => ({
      url: `/api/subscriptions/${await subscriptionOfUser(cast)}`,
      body: { SendWeekly: false },
    }),
    badInput: async (cast) => ({
      url: `/api/subscriptions/${await subscriptionOfUser(cast)}`,
      body: { SendWeekly: false, SendMonthly: true },
    }),
  },
  {
    method: 'DELETE',
    route: '/api/subscriptions/:id',
    access: 'platformAdmin',
    happy: async (cast) => ({ url: `/api/subscriptions/${await subscriptionOfUser(cast)}` }),
    badInput: () => Promise.resolve({ url: '/api/subscriptions/zero' }),
  },
];
