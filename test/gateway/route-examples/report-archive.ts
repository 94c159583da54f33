import { archivedReportOf } from '../report-archive-fixtures';
import { sellerOfA } from './sellers';
import type { Cast, RouteExample } from './types';

let archived: Promise<{ archivedReportId: number; sellerId: number }> | undefined;
/** One archived report of a seller of tenant A, shared by the examples (they only read it). */
const archivedOfA = (cast: Cast) =>
  (archived ??= (async () => {
    const sellerId = await sellerOfA(cast);
    const { archivedReportId } = await archivedReportOf(cast.world, { tenantId: cast.a.tenantId, sellerId });
    return { archivedReportId, sellerId };
  })());

export const examples: RouteExample[] = [
  {
    method: 'GET',
    route: '/api/reports/archived',
    access: 'member',
    happy: async (cast) => ({ url: `/api/reports/archived?sellerId=${(await archivedOfA(cast)).sellerId}` }),
    badInput: () => Promise.resolve({ url: '/api/reports/archived?sellerId=first&limit=0' }),
  },
  {
    method: 'GET',
    route: '/api/reports/archived/:id/content',
    access: 'member',
    happy: async (cast) => ({
      url: `/api/reports/archived/${(await archivedOfA(cast)).archivedReportId}/content`,
    }),
    badInput: () => Promise.resolve({ url: '/api/reports/archived/latest/content' }),
  },
  {
    method: 'GET',
    route: '/api/reports/archived/:id/download',
    access: 'member',
    happy: async (cast) => ({
      url: `/api/reports/archived/${(await archivedOfA(cast)).archivedReportId}/download`,
    }),
    badInput: () => Promise.resolve({ url: '/api/reports/archived/0/download' }),
  },
  {
    method: 'GET',
    route: '/api/reports/managed',
    access: 'member',
    happy: () => Promise.resolve({ url: '/api/reports/managed' }),
    badInput: () => Promise.resolve({ url: '/api/reports/managed?limit=many' }),
    otherTenant: {
      sameForEveryTenant: "lists the caller's current tenant's live reports: B's admin sees B's, never A's",
    },
  },
];
