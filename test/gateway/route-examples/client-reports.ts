import { sellerOf } from '../admin-fixtures';
import type { Cast, RouteExample } from './types';

let client: Promise<number> | undefined;
/**
 * A client of firm F with a connected platform, added by F's advisor after a platform admin gave
 * F a partner (so the client joins it): what both client reports cover. Made once; the examples
 * only read it.
 */
const firmClient = (cast: Cast) =>
  (client ??= (async () => {
    const partner = await cast.platformAdmin.browser.post('/api/partners', {
      Name: `Client Report Partner ${cast.world.runId}`,
      ClientPlanIdentifier: 'free_client',
      TenantId: cast.firm.tenantId,
    });
    if (partner.statusCode !== 200) throw new Error(`partner: ${partner.statusCode} ${partner.body}`);
    const created = await cast.firm.advisor.browser.post('/api/tenants', {
      Name: 'Client Report Bakery',
      Industry: { FreeForm: 'Bakery' },
      BusinessModel: 'B2B',
    });
    if (created.statusCode !== 201) throw new Error(`client: ${created.statusCode} ${created.body}`);
    const tenantId = created.json<{ Id: number }>().Id;
    await sellerOf(cast.world, tenantId, { companyName: 'Client Report Bakery Books' });
    return tenantId;
  })());

export const examples: RouteExample[] = [
  {
    method: 'GET',
    route: '/api/tenants/:id/reports/client',
    access: 'advisor',
    happy: async (cast) => {
      await firmClient(cast);
      return { url: `/api/tenants/${cast.firm.tenantId}/reports/client?format=pdf` };
    },
    badInput: (cast) =>
      Promise.resolve({ url: `/api/tenants/${cast.firm.tenantId}/reports/client?format=docx` }),
  },
  {
    method: 'GET',
    route: '/api/users/:id/reports/client',
    access: 'advisor',
    happy: async (cast) => {
      await firmClient(cast);
      return { url: `/api/users/${cast.firm.advisor.userId}/reports/client?format=xlsx` };
    },
    badInput: (cast) =>
      Promise.resolve({ url: `/api/users/${cast.firm.advisor.userId}/reports/client?format=pdf&colour=red` }),
  },
];
