import { handleCommand } from '../commands/command-handler';
import type { EventSource } from '../commands/open-event-source';
import { systemActor } from '../domain/actor';
import { sellerDecider } from '../domain/seller/seller-decider';
import type { DemoProfile } from '../workflows/demo/demo-profile';
import { sellerStream } from '../contracts/stream-ids';

/** The DEMO history the sync and metrics benchmarks generate: 2.5 years up to a fixed date. */
export const benchUntil = new Date('2024-06-30T12:00:00.000Z');

/** Customers join over the first three years, so 2.5 years hold about 0.8 of invoicesPerYear x 2.5. */
export const benchProfile = (invoices: number): DemoProfile => ({
  seed: 2024,
  startDate: '2022-01-01',
  invoicesPerYear: Math.max(12, Math.round(invoices / 2.5 / 0.8)),
});

/** Connects a DEMO seller on the write side, as the gateway would. */
export const connectBenchSeller = async (
  events: EventSource,
  ids: { sellerId: number; tenantId: number },
) => {
  await handleCommand(
    sellerDecider,
    {
      streamId: sellerStream(ids.sellerId),
      commandId: `bench-connect-${ids.sellerId}`,
      command: {
        type: 'ConnectSeller',
        now: new Date(),
        data: {
          ...ids,
          provider: 'DEMO',
          actor: systemActor,
          tenantIsDemo: true,
          tenantHasConnectedSeller: false,
          planAllowsProvider: true,
          companyName: 'Bench Demo Seller',
          url: null,
          authMethod: 'none',
          authTokenOwner: null,
          credentialsRef: null,
          companyFilePath: null,
        },
      },
    },
    events.writeSide,
  );
};

/** Peak resident memory of this process while `work` runs, sampled every 100 ms. */
export const measurePeakRss = async <T>(work: () => Promise<T>): Promise<{ result: T; peakMiB: number }> => {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 100);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, peakMiB: peak / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
};
