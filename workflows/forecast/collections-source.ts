import type { Db } from 'mongodb';
import { ledgerCollections } from '../ledger/ledger-collections';
import {
  createCollectionsForecaster,
  defaultCollectionsOptions,
  type CollectionsResult,
  type CustomerLedger,
} from './collections-forecast';
import {
  groupCustomerLedgers,
  invoiceProjection,
  settlementProjection,
  type ForecastInvoiceRecord,
  type ForecastSettlementRecord,
} from './collections-ledger';

/** Customers read per round trip: about 25,000 invoices at 100 a customer, a few MiB held at once. */
const CUSTOMERS_PER_CHUNK = 250;

/**
 * A seller's ledger one customer at a time, read in chunks of customers by id range (the
 * seller_customer_date indexes of invoices and payments, seller_customer of customers): memory holds
 * one chunk, never the ledger. Unsorted reads, so neither store has to sort the seller's invoices.
 */
export async function* sellerCustomerLedgers(
  db: Db,
  request: { sellerId: number; onChunk?: (customersRead: number, customers: number) => Promise<void> },
): AsyncGenerator<CustomerLedger> {
  const { sellerId } = request;
  const ids = (
    await db
      .collection<{ customerId: number }>(ledgerCollections.customers)
      .find({ sellerId }, { projection: { _id: 0, customerId: 1 } })
      .toArray()
  )
    .map((customer) => customer.customerId)
    .sort((a, b) => a - b);
  for (let start = 0; start < ids.length; start += CUSTOMERS_PER_CHUNK) {
    const chunk = ids.slice(start, start + CUSTOMERS_PER_CHUNK);
    const range = { sellerId, customerId: { $gte: chunk[0] ?? 0, $lte: chunk[chunk.length - 1] ?? 0 } };
    const [invoices, payments, credits] = await Promise.all([
      db
        .collection<ForecastInvoiceRecord>(ledgerCollections.invoices)
        .find(range, { projection: invoiceProjection })
        .toArray(),
      db
        .collection<ForecastSettlementRecord>(ledgerCollections.payments)
        .find(range, { projection: settlementProjection })
        .toArray(),
      db
        .collection<ForecastSettlementRecord>(ledgerCollections.creditMemos)
        .find(range, { projection: settlementProjection })
        .toArray(),
    ]);
    yield* groupCustomerLedgers({ invoices, payments, credits });
    await request.onChunk?.(Math.min(ids.length, start + chunk.length), ids.length);
  }
}

/**
 * Collections forecasts of a seller from its stored ledger in one pass, one per asOf (a live run has
 * one; a historical run several, sharing the read). Excluded customers (the seller's
 * exclusions.CustomerIds flag) count nowhere, as in the metrics.
 */
export const forecastSellerCollectionsAt = async (
  db: Db,
  request: {
    sellerId: number;
    asOfs: readonly Date[];
    excludedCustomerIds: readonly number[];
    onChunk?: (customersRead: number, customers: number) => Promise<void>;
  },
): Promise<{ results: CollectionsResult[]; customersRead: number }> => {
  const excluded = new Set(request.excludedCustomerIds);
  const forecasters = request.asOfs.map((asOf) =>
    createCollectionsForecaster(defaultCollectionsOptions(asOf)),
  );
  let customersRead = 0;
  for await (const ledger of sellerCustomerLedgers(db, request)) {
    customersRead += 1;
    if (excluded.has(ledger.customerId)) continue;
    for (const forecaster of forecasters) forecaster.addCustomer(ledger);
  }
  return { results: forecasters.map((forecaster) => forecaster.finish()), customersRead };
};

/** One collections forecast as of `asOf`. */
export const forecastSellerCollections = async (
  db: Db,
  request: { sellerId: number; asOf: Date; excludedCustomerIds: readonly number[] },
): Promise<CollectionsResult & { customersRead: number }> => {
  const { results, customersRead } = await forecastSellerCollectionsAt(db, {
    sellerId: request.sellerId,
    asOfs: [request.asOf],
    excludedCustomerIds: request.excludedCustomerIds,
  });
  const [result] = results;
  if (!result) throw new Error('no forecast was computed');
  return { ...result, customersRead };
};
