import { tenantDecider } from '../../../domain/tenant/tenant-decider';
import { systemActor } from '../../../domain/actor';
import { multipartForm, pngBytes } from '../multipart-form';
import type { Cast, RouteExample } from './types';
import { tenantStream } from '../../../contracts/stream-ids';

let count = 0;

/** A tenant nobody uses, for the destructive example. */
const disposableTenant = async (cast: Cast): Promise<number> => {
  count += 1;
  const tenantId = 700_000 + count;
  await cast.world.run(tenantDecider, tenantStream(tenantId), {
    type: 'CreateTenant',
    data: { tenantId, name: `Disposable ${count}`, classification: 'BUSINESS' },
    now: cast.world.clock.now(),
    actor: systemActor,
  });
  await cast.world.settle();
  return tenantId;
};

/** A disposable tenant the platform admin has disabled, for the restore example. */
const disabledTenant = async (cast: Cast): Promise<number> => {
  const tenantId = await disposableTenant(cast);
  await cast.world.run(tenantDecider, tenantStream(tenantId), {
    type: 'DisableTenant',
    data: { reason: 'TESTING' },
    now: cast.world.clock.now(),
    actor: systemActor,
  });
  await cast.world.settle();
  return tenantId;
};

const logoForm = () => multipartForm([{ name: 'logo.png', type: 'image/png', bytes: pngBytes }]);

const reportingEdit = (cast: Cast) =>
  Promise.resolve({
    url: `/api/tenants/${cast.a.tenantId}`,
    body: { Settings: { Reporting: { WeeklyDay: 3 } } },
    as: cast.a.admin.browser,
  });
const badReportingEdit = (cast: Cast) =>
  Promise.resolve({
    url: `/api/tenants/${cast.a.tenantId}`,
    body: { Settings: { Reporting: { WeeklyDay: 9 } } },
  });

export const examples: RouteExample[] = [
  {
    method: 'GET',
    route: '/api/tenants',
    access: 'session',
    happy: () => Promise.resolve({ url: '/api/tenants' }),
    badInput: () => Promise.resolve({ url: '/api/tenants?scope=some' }),
    otherTenant: { sameForEveryTenant: 'the caller’s own companies' },
  },
  {
    method: 'POST',
    route: '/api/tenants',
    access: 'session',
    status: 201,
    // A plain USER may not add a company; its admin may.
    happy: (cast) =>
      Promise.resolve({
        url: '/api/tenants',
        body: { Name: 'Example Co', Industry: { FreeForm: 'Retail' }, BusinessModel: 'B2B' },
        as: cast.a.admin.browser,
      }),
    badInput: () => Promise.resolve({ url: '/api/tenants', body: { Name: '', BusinessModel: 'B2X' } }),
    otherTenant: { notTenantData: 'creates a new company for the caller' },
  },
  {
    method: 'GET',
    route: '/api/tenants/:id',
    access: 'session',
    happy: (cast) => Promise.resolve({ url: `/api/tenants/${cast.a.tenantId}` }),
    badInput: () => Promise.resolve({ url: '/api/tenants/first' }),
  },
  {
    method: 'PUT',
    route: '/api/tenants/:id',
    access: 'session',
    happy: reportingEdit,
    badInput: badReportingEdit,
  },
  {
    method: 'PATCH',
    route: '/api/tenants/:id',
    access: 'session',
    happy: reportingEdit,
    badInput: badReportingEdit,
  },
  {
    method: 'PUT',
    route: '/api/tenants/batch',
    access: 'member',
    happy: (cast) =>
      Promise.resolve({
        url: '/api/tenants/batch',
        body: { Id: [cast.a.tenantId], MonthlyDay: 9 },
        as: cast.a.admin.browser,
      }),
    badInput: () => Promise.resolve({ url: '/api/tenants/batch', body: { Id: [], WeeklyDay: 9 } }),
  },
  {
    method: 'DELETE',
    route: '/api/tenants/:id',
    access: 'platformAdmin',
    happy: async (cast) => ({ url: `/api/tenants/${await disposableTenant(cast)}?reason=TESTING` }),
    badInput: (cast) => Promise.resolve({ url: `/api/tenants/${cast.a.tenantId}?reason=BORED` }),
  },
  {
    method: 'GET',
    route: '/api/tenants/:id/details',
    access: 'platformAdmin',
    happy: (cast) => Promise.resolve({ url: `/api/tenants/${cast.a.tenantId}/details` }),
    badInput: () => Promise.resolve({ url: '/api/tenants/first/details' }),
  },
  {
    method: 'POST',
    route: '/api/tenants/:id/restore',
    access: 'platformAdmin',
    happy: async (cast) => ({ url: `/api/tenants/${await disabledTenant(cast)}/restore` }),
    badInput: () => Promise.resolve({ url: '/api/tenants/first/restore' }),
  },
  {
    method: 'POST',
    route: '/api/tenants/:tenantId/logo',
    access: 'session',
    happy: (cast) =>
      Promise.resolve({
        url: `/api/tenants/${cast.a.tenantId}/logo`,
        ...logoForm(),
        as: cast.a.admin.browser,
      }),
    badInput: () => Promise.resolve({ url: '/api/tenants/acme/logo', ...logoForm() }),
  },
  {
    method: 'GET',
    route: '/api/tenants/:id/logo',
    access: 'session',
    happy: async (cast) => {
      const uploaded = await cast.a.admin.browser.request({
        method: 'POST',
        url: `/api/tenants/${cast.a.tenantId}/logo`,
        ...logoForm(),
      });
      const pending = uploaded.json<{ Logo: { PendingURL: string } }>().Logo.PendingURL;
      return { url: pending };
    },
    badInput: (cast) => Promise.resolve({ url: `/api/tenants/${cast.a.tenantId}/logo?v=not-a-uuid` }),
  },
];
