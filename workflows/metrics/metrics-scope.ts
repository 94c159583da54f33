import type { CommandHandlerDeps } from '../../commands/command-handler';
import type { RetentionPeriod } from '../../contracts/events/tenant';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import { readState } from '../sync/system-commands';
import type { Exclusions } from './compute-metrics';
import { sellerStream, tenantStream } from '../../contracts/stream-ids';

/** What a seller's metrics depend on besides its ledger: its exclusion flags, retention and date. */
export type MetricsScope = {
  exclusions: Exclusions;
  retention: RetentionPeriod;
  asOf: Date;
  /** Whether the seller has a CollectionDate: a MetricsDate needs one (the seller decider's rule). */
  synced: boolean;
};

export const readMetricsScope = async (
  deps: { writeSide: CommandHandlerDeps; now: () => Date },
  seller: { sellerId: number; tenantId: number },
): Promise<MetricsScope> => {
  const state = await readState(deps.writeSide, sellerDecider, sellerStream(seller.sellerId));
  if (state.status !== 'known') throw new Error(`seller ${seller.sellerId} is not known`);
  const tenant = await readState(deps.writeSide, tenantDecider, tenantStream(seller.tenantId));
  return {
    exclusions: {
      customerIds: state.featureFlags['exclusions.CustomerIds'],
      productIds: state.featureFlags['exclusions.ProductIds'],
    },
    retention: tenant.status === 'none' ? 'AUTO' : tenant.reporting.RetentionPeriod,
    // Metrics describe the data as collected: up to the CollectionDate, or now if there is none yet.
    asOf: state.collectionDate ? new Date(state.collectionDate) : deps.now(),
    synced: state.collectionDate !== null,
  };
};
