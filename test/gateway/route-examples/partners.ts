import type { Cast, RouteExample } from './types';

let count = 0;
const uniqueName = (cast: Cast, name: string) => `${name} ${cast.world.runId} ${(count += 1)}`;

const createPartner = async (cast: Cast): Promise<number> => {
  const response = await cast.platformAdmin.browser.post('/api/partners', {
    Name: uniqueName(cast, 'Example Partner'),
    ClientPlanIdentifier: 'free_client',
    TenantId: cast.firm.tenantId,
  });
  if (response.statusCode !== 200) throw new Error(`create partner: ${response.statusCode} ${response.body}`);
  return response.json<{ Id: number }>().Id;
};

export const examples: RouteExample[] = [
  {
    method: 'GET',
    route: '/api/partners',
    access: 'platformAdmin',
    happy: () => Promise.resolve({ url: '/api/partners?search=partner' }),
    badInput: () => Promise.resolve({ url: '/api/partners?colour=red' }),
  },
  {
    method: 'POST',
    route: '/api/partners',
    access: 'platformAdmin',
    happy: (cast) =>
      Promise.resolve({
        url: '/api/partners',
        body: {
          Name: uniqueName(cast, 'New Partner'),
          ClientPlanIdentifier: 'free_client',
          TenantId: cast.firm.tenantId,
        },
      }),
    badInput: () => Promise.resolve({ url: '/api/partners', body: { Name: '', ClientPlanIdentifier: '' } }),
  },
  {
    method: 'PATCH',
    route: '/api/partners/:TenantId',
    access: 'platformAdmin',
    happy: async (cast) => ({
      url: `/api/partners/${cast.firm.tenantId}`,
      body: { Id: await createPartner(cast), Name: uniqueName(cast, 'Renamed Partner'), WeeklyDay: 3 },
    }),
    badInput: (cast) =>
      Promise.resolve({ url: `/api/partners/${cast.firm.tenantId}`, body: { WeeklyDay: 7, MonthlyDay: 29 } }),
  },
];
