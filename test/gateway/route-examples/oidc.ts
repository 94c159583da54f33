import { ConnectProvider, SignInProvider } from '../../../contracts/api/oidc';
import { connections } from '../../../gateway/auth/connections';
import {
  pointProvidersAt,
  startLocalOAuthServer,
  type LocalOAuthServer,
} from '../../oauth/local-oauth-server';
import type { Cast, RouteExample } from './types';

/**
 * Provider sign-in and platform connections. The start routes redirect to a local OAuth server (started
 * once for the route table); a full round trip needs that server's answer, so the callbacks' happy
 * requests here are ones without a flow, answered by a redirect with an error. The successful round
 * trips are in test/gateway/oidc-routes.test.ts and connect-routes.test.ts.
 */
let server: Promise<LocalOAuthServer> | undefined;
const withProvider = async (cast: Cast) => {
  server ??= startLocalOAuthServer({ publicUrl: cast.world.config.PUBLIC_URL }).then((started) => {
    pointProvidersAt(cast.world.config, started);
    return started;
  });
  await server;
};

const longState = 'x'.repeat(600);

const signInExamples = SignInProvider.options.flatMap((provider): RouteExample[] => [
  {
    method: 'GET',
    route: `/api/auth/${provider}/signup`,
    access: 'public',
    status: 302,
    happy: async (cast) => {
      await withProvider(cast);
      return { url: `/api/auth/${provider}/signup?referrer=route-table&planIdentifier=free_business` };
    },
    badInput: () => Promise.resolve({ url: `/api/auth/${provider}/signup?referrer=${'r'.repeat(300)}` }),
    otherTenant: { notTenantData: 'starts a sign-up; no tenant is involved' },
  },
  {
    method: 'GET',
    route: `/api/auth/${provider}/login`,
    access: 'public',
    status: 302,
    happy: async (cast) => {
      await withProvider(cast);
      return { url: `/api/auth/${provider}/login?returnTo=%2Fplatforms` };
    },
    badInput: () => Promise.resolve({ url: `/api/auth/${provider}/login?returnTo=%2F%2Fevil.example` }),
    otherTenant: { notTenantData: 'starts a sign-in; no tenant is involved' },
  },
  {
    method: 'GET',
    route: `/api/auth/${provider}/callback`,
    access: 'public',
    status: 302,
    happy: () =>
      Promise.resolve({ url: `/api/auth/${provider}/callback?code=some-code&state=some-state-value` }),
    badInput: () => Promise.resolve({ url: `/api/auth/${provider}/callback?code=c&state=${longState}` }),
    otherTenant: { notTenantData: 'finishes only the flow its own signed cookie started' },
  },
]);

const connectStartExamples = connections.map((connection): RouteExample => ({
  method: 'GET',
  route: connection.route,
  access: 'tenantAdmin',
  status: 302,
  happy: async (cast) => {
    await withProvider(cast);
    return {
      url: connection.route,
      ...(connection.platformAdminOnly ? { as: cast.platformAdmin.browser } : {}),
    };
  },
  badInput: { none: 'takes no input; the flow is for the caller’s current tenant' },
  otherTenant: { sameForEveryTenant: 'connects the caller’s current tenant' },
}));

const connectCallbackExamples = ConnectProvider.options.map((provider): RouteExample => ({
  method: 'GET',
  route: `/api/connect/${provider}/callback`,
  access: 'public',
  status: 302,
  happy: () =>
    Promise.resolve({ url: `/api/connect/${provider}/callback?code=some-code&state=some-state-value` }),
  badInput: () => Promise.resolve({ url: `/api/connect/${provider}/callback?code=c&state=${longState}` }),
  otherTenant: {
    notTenantData: 'acts only on the flow its signed cookie binds to the starting session and tenant',
  },
}));

export const examples: RouteExample[] = [
  ...signInExamples,
  ...connectStartExamples,
  ...connectCallbackExamples,
];
