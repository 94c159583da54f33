import { person } from '../team-fixtures';
import { integrationDecider } from '../../../domain/integration/integration-decider';
import { companyFor } from '../fixtures';
import { grantProducts } from '../platform-fixtures';
import type { Cast, RouteExample } from './types';
import { integrationStream } from '../../../contracts/stream-ids';

let nextIntegrationId = 990_000;
let count = 0;

/** A fresh ActiveCampaign account of tenant A, connected as a system fixture (optionally switched off). */
const accountOfA = async (cast: Cast, options: { active?: boolean } = {}): Promise<number> => {
  const integrationId = (nextIntegrationId += 1);
  const streamId = integrationStream(integrationId);
  const now = cast.world.clock.now();
  await cast.world.run(integrationDecider, streamId, {
    type: 'ConnectIntegration',
    data: {
      integrationId,
      tenantId: cast.a.tenantId,
      provider: 'ACTIVE_CAMPAIGN',
      productIdentifier: null,
      authMethod: 'api_key',
      credentialsRef: 'cred-example',
      credentialsOwner: null,
      url: 'https://example.api-us1.com',
      actor: { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false },
      tenantIsDemo: false,
      planAllowsProvider: true,
    },
    now,
  });
  if (options.active === false)
    await cast.world.run(integrationDecider, streamId, {
      type: 'SetIntegrationActive',
      data: { active: false },
      now,
    });
  await cast.world.settle();
  return integrationId;
};

const update = (method: 'PUT' | 'PATCH'): RouteExample => ({
  method,
  route: '/api/integrations/:id',
  access: 'tenantAdmin',
  happy: async (cast) => ({ url: `/api/integrations/${await accountOfA(cast)}`, body: { Active: false } }),
  badInput: async (cast) => ({ url: `/api/integrations/${await accountOfA(cast)}`, body: { Active: 'no' } }),
});

export const examples: RouteExample[] = [
  {
    method: 'GET',
    route: '/api/integrations',
    access: 'member',
    happy: () => Promise.resolve({ url: '/api/integrations?provider=ACTIVE_CAMPAIGN' }),
    badInput: () => Promise.resolve({ url: '/api/integrations?product=GOLD' }),
    otherTenant: {
      sameForEveryTenant: 'lists the caller’s current tenant only; scope=all needs a platform admin',
    },
  },
  {
    method: 'POST',
    route: '/api/integrations',
    access: 'member',
    happy: async (cast) => {
      const owner = await person(cast.world, { name: `integration-example-${(count += 1)}` });
      const tenantId = await companyFor(cast.world, owner, { name: `Integration Example ${count}` });
      await grantProducts(cast.world, tenantId, ['integrations/active_campaign']);
      return {
        url: '/api/integrations',
        body: { Provider: 'ACTIVE_CAMPAIGN', Credentials: { URL: 'https://ex.api-us1.com', ApiKey: 'k-1' } },
        as: owner.browser,
      };
    },
    badInput: () =>
      Promise.resolve({ url: '/api/integrations', body: { Provider: 'ACTIVE_CAMPAIGN', Credentials: {} } }),
    otherTenant: { sameForEveryTenant: 'connects an account to the caller’s current tenant' },
  },
  {
    method: 'GET',
    route: '/api/integrations/:id',
    access: 'member',
    happy: async (cast) => ({ url: `/api/integrations/${await accountOfA(cast)}` }),
    badInput: () => Promise.resolve({ url: '/api/integrations/none' }),
  },
  update('PUT'),
  update('PATCH'),
  {
    method: 'POST',
    route: '/api/integrations/:id/disconnect',
    access: 'tenantAdmin',
    happy: async (cast) => ({ url: `/api/integrations/${await accountOfA(cast)}/disconnect` }),
    badInput: () => Promise.resolve({ url: '/api/integrations/0/disconnect' }),
  },
  {
    method: 'POST',
    route: '/api/integrations/:id/sync',
    access: 'tenantAdmin',
    // ActiveCampaign is a CRM: its sync button is a platform admin's, so the example is the cloud kind's rule.
    happy: async (cast) => ({
      url: `/api/integrations/${await accountOfA(cast)}/sync`,
      as: cast.platformAdmin.browser,
    }),
    badInput: () => Promise.resolve({ url: '/api/integrations/zero/sync' }),
  },
  {
    method: 'POST',
    route: '/api/integrations/:id/purge',
    access: 'platformAdmin',
    happy: async (cast) => ({
      url: `/api/integrations/${await accountOfA(cast, { active: false })}/purge`,
      body: { unlink: true },
    }),
    badInput: async (cast) => ({
      url: `/api/integrations/${await accountOfA(cast, { active: false })}/purge`,
      body: { unlink: 'yes' },
    }),
  },
  {
    method: 'POST',
    route: '/api/integrations/:id/unlink',
    access: 'platformAdmin',
    happy: async (cast) => ({ url: `/api/integrations/${await accountOfA(cast, { active: false })}/unlink` }),
    badInput: () => Promise.resolve({ url: '/api/integrations/zero/unlink' }),
  },
  {
    method: 'GET',
    route: '/api/integrations/:id/companies',
    access: 'platformAdmin',
    happy: async (cast) => ({
      url: `/api/integrations/${await accountOfA(cast)}/companies?filter=matched&search=acme&limit=20`,
    }),
    badInput: async (cast) => ({
      url: `/api/integrations/${await accountOfA(cast)}/companies?filter=linked`,
    }),
  },
  {
    method: 'DELETE',
    route: '/api/integrations/:id',
    access: 'tenantAdmin',
    happy: async (cast) => ({ url: `/api/integrations/${await accountOfA(cast, { active: false })}` }),
    badInput: () => Promise.resolve({ url: '/api/integrations/-4' }),
  },
];
