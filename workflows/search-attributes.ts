import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Registered on the Temporal server (deploy/local, the test harness): operators filter a tenant's or
 * a seller's runs by them in the Temporal UI, whatever the pipeline.
 */
export const TenantIdKey = defineSearchAttributeKey('TenantId', SearchAttributeType.INT);
export const SellerIdKey = defineSearchAttributeKey('SellerId', SearchAttributeType.INT);

/** The search attributes of a run for one seller. */
export const sellerSearchAttributes = (run: { tenantId: number; sellerId: number }) => [
  { key: TenantIdKey, value: run.tenantId },
  { key: SellerIdKey, value: run.sellerId },
];
