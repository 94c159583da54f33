import { person } from '../team-fixtures';
import { sellerDecider } from '../../../domain/seller/seller-decider';
import { companyFor } from '../fixtures';
import { grantProducts } from '../platform-fixtures';
import type { Cast, RouteExample } from './types';
import { sellerStream } from '../../../contracts/stream-ids';

let nextSellerId = 880_000;
let count = 0;

/** A fresh DEMO seller of tenant A (a system fixture, so tenant A's one-platform rule does not apply). */
export const sellerOfA = async (cast: Cast, options: { active?: boolean } = {}): Promise<number> => {
  const sellerId = (nextSellerId += 1);
  const now = cast.world.clock.now();
  const streamId = sellerStream(sellerId);
  await cast.world.run(sellerDecider, streamId, {
    type: 'ConnectSeller',
    data: {
      sellerId,
      tenantId: cast.a.tenantId,
      provider: 'DEMO',
      companyName: 'Example Demo Company',
      url: null,
      authMethod: 'none',
      authTokenOwner: null,
      credentialsRef: null,
      companyFilePath: null,
      actor: { userId: null, isPlatformAdmin: true, tenantRole: null, isAdvisor: false },
      tenantIsDemo: false,
      tenantHasConnectedSeller: false,
      planAllowsProvider: true,
    },
    now,
  });
  if (options.active === false)
    await cast.world.run(sellerDecider, streamId, { type: 'SetSellerActive', data: { active: false }, now });
  await cast.world.settle();
  return sellerId;
};

/** A new company of its own, so the one-platform rule of a tenant admin's first connection applies afresh. */
const freshCompany = async (cast: Cast) => {
  const owner = await person(cast.world, { name: `seller-example-${(count += 1)}` });
  const tenantId = await companyFor(cast.world, owner, { name: `Seller Example ${count}` });
  return { owner, tenantId };
};

export const examples: RouteExample[] = [
  {
    method: 'GET',
    route: '/api/sellers',
    access: 'member',
    happy: () => Promise.resolve({ url: '/api/sellers?Active=true&include=Subscriptions,FeatureFlags' }),
    badInput: () => Promise.resolve({ url: '/api/sellers?include=Everything' }),
    otherTenant: {
      sameForEveryTenant: 'lists the caller’s current tenant only; scope=all needs a platform admin',
    },
  },
  {
    method: 'GET',
    route: '/api/sellers/:id',
    access: 'member',
    happy: async (cast) => ({ url: `/api/sellers/${await sellerOfA(cast)}` }),
    badInput: () => Promise.resolve({ url: '/api/sellers/not-a-number' }),
  },
  {
    method: 'POST',
    route: '/api/sellers',
    access: 'member',
    happy: async (cast) => {
      const { owner } = await freshCompany(cast);
      return { url: '/api/sellers', body: { provider: 'DEMO' }, as: owner.browser };
    },
    badInput: () => Promise.resolve({ url: '/api/sellers', body: { provider: 'SAGE', companyId: 'X' } }),
    otherTenant: { sameForEveryTenant: 'connects a platform to the caller’s current tenant' },
  },
  {
    method: 'PUT',
    route: '/api/sellers/:id',
    access: 'tenantAdmin',
    happy: async (cast) => ({
      url: `/api/sellers/${await sellerOfA(cast)}`,
      // A flag a tenant admin may set (crm.PushSalesRep is reserved to platform admins).
      body: { Active: false, FeatureFlags: [{ Flag: 'customerSheet.showOtherCredits', Value: true }] },
    }),
    badInput: async (cast) => ({ url: `/api/sellers/${await sellerOfA(cast)}`, body: { Active: 'off' } }),
  },
  {
    method: 'POST',
    route: '/api/sellers/:id/flags/:flag',
    access: 'platformAdmin',
    happy: async (cast) => ({
      url: `/api/sellers/${await sellerOfA(cast)}/flags/forecasts`,
      body: { state: true, section: 'Receivables' },
    }),
    badInput: async (cast) => ({
      url: `/api/sellers/${await sellerOfA(cast)}/flags/forecasts`,
      body: { state: 'on', section: 'Receivables' },
    }),
  },
  {
    method: 'DELETE',
    route: '/api/sellers/:id',
    access: 'tenantAdmin',
    happy: async (cast) => ({ url: `/api/sellers/${await sellerOfA(cast, { active: false })}` }),
    badInput: () => Promise.resolve({ url: '/api/sellers/0' }),
  },
  {
    method: 'POST',
    route: '/api/sellers/:id/disconnect',
    access: 'tenantAdmin',
    happy: async (cast) => ({ url: `/api/sellers/${await sellerOfA(cast)}/disconnect` }),
    badInput: () => Promise.resolve({ url: '/api/sellers/-1/disconnect' }),
  },
  {
    method: 'POST',
    route: '/api/sellers/:id/sync',
    access: 'platformAdmin',
    happy: async (cast) => ({ url: `/api/sellers/${await sellerOfA(cast)}/sync?reset=1` }),
    badInput: async (cast) => ({ url: `/api/sellers/${await sellerOfA(cast)}/sync?reset=later` }),
  },
  {
    method: 'POST',
    route: '/api/sellers/sync',
    access: 'platformAdmin',
    happy: () => Promise.resolve({ url: '/api/sellers/sync', body: { provider: 'DEMO', active: true } }),
    badInput: () => Promise.resolve({ url: '/api/sellers/sync', body: { provider: 'FAX' } }),
    otherTenant: { notTenantData: 'a platform-wide admin action' },
  },
  {
    method: 'POST',
    route: '/api/qbd/config',
    access: 'member',
    happy: async (cast) => {
      const { owner, tenantId } = await freshCompany(cast);
      await grantProducts(cast.world, tenantId, ['platforms/qbd_web_connector']);
      return {
        url: '/api/qbd/config',
        body: { companyFilename: 'C:\\Books\\Example.qbw' },
        as: owner.browser,
      };
    },
    badInput: () => Promise.resolve({ url: '/api/qbd/config', body: { companyFilename: 'Example.txt' } }),
    otherTenant: { sameForEveryTenant: 'connects QuickBooks Desktop to the caller’s current tenant' },
  },
];
