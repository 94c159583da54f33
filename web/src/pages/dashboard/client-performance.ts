import type { ClientRow } from '../../../../contracts/api/clients';

/** portal.md section 9: 1 to 29 clients meet the criteria; from 30 the data moves to the Customer Sheet. */
export const clientPerformanceLimit = 30;

export type ClientPerformance = 'none' | 'meets' | 'exceeds';

/** The clients the summary covers: real (not the demo) businesses that have connected a platform. */
export const clientPerformanceCount = (clients: readonly ClientRow[]): number =>
  clients.filter(
    (client) => !client.isDemo && client.Classification !== 'FIRM' && client.Platforms.length > 0,
  ).length;

export const clientPerformanceOf = (clients: readonly ClientRow[]): ClientPerformance => {
  const count = clientPerformanceCount(clients);
  if (count === 0) return 'none';
  return count < clientPerformanceLimit ? 'meets' : 'exceeds';
};
