import { recipientStream, sellerStream } from '../../../contracts/stream-ids';
import { recipientDecider } from '../../../domain/recipient/recipient-decider';
import { sellerDecider } from '../../../domain/seller/seller-decider';
import { signUnsubscribeToken } from '../../../workflows/reports/email/unsubscribe-token';
import type { Cast, RouteExample } from './types';

let nextId = 893_000;
const system = { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };

/** A fresh seller of tenant A and its plain USER's weekly subscription to it: the emailed link's target. */
const weeklySubscriptionOfUser = async (cast: Cast): Promise<number> => {
  const sellerId = (nextId += 1);
  const recipientId = sellerId;
  const now = cast.world.clock.now();
  await cast.world.run(sellerDecider, sellerStream(sellerId), {
    type: 'ConnectSeller',
    data: {
      sellerId,
      tenantId: cast.a.tenantId,
      provider: 'DEMO',
      companyName: 'Unsubscribe Example Company',
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
    now,
  });
  await cast.world.run(recipientDecider, recipientStream(recipientId), {
    type: 'SubscribeRecipient',
    data: {
      recipientId,
      tenantId: cast.a.tenantId,
      sellerId,
      subscriber: { userId: cast.a.user.userId },
      actor: system,
      subscriberAlreadySubscribed: false,
    },
    now,
  });
  await cast.world.settle();
  return recipientId;
};

export const examples: RouteExample[] = [
  {
    method: 'POST',
    route: '/api/subscriptions/unsubscribe',
    access: 'public',
    happy: async (cast) => {
      const recipientId = await weeklySubscriptionOfUser(cast);
      const token = signUnsubscribeToken(cast.world.config.SESSION_SECRET, {
        recipientId,
        frequency: 'weekly',
      });
      return { url: '/api/subscriptions/unsubscribe', body: { token } };
    },
    badInput: () => Promise.resolve({ url: '/api/subscriptions/unsubscribe', body: { token: '' } }),
    otherTenant: {
      notTenantData: "the signed token names the subscription; the caller's session and tenant play no part",
    },
  },
  {
    method: 'GET',
    route: '/api/subscriptions/unsubscribe/one-click',
    access: 'public',
    // A GET of the List-Unsubscribe address changes nothing: it goes on to the confirming page.
    status: 303,
    happy: async (cast) => {
      const recipientId = await weeklySubscriptionOfUser(cast);
      const token = signUnsubscribeToken(cast.world.config.SESSION_SECRET, {
        recipientId,
        frequency: 'weekly',
      });
      return { url: `/api/subscriptions/unsubscribe/one-click?token=${encodeURIComponent(token)}` };
    },
    badInput: () => Promise.resolve({ url: '/api/subscriptions/unsubscribe/one-click?token=' }),
    otherTenant: {
      notTenantData: "the signed token names the subscription; the caller's session and tenant play no part",
    },
  },
];
