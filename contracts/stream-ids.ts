import { IdCategory, recordIdCategories } from './events/id-allocation';

/**
 * The event-store stream of each aggregate, `<category>-<id>` with the category ending at the first
 * dash (architecture.md, write side). Streams are named here only, so a typo cannot quietly start a
 * second stream for one aggregate, and the type says which aggregate a stream id belongs to.
 *
 * Each aggregate's id is allocated in the id category of the same name (id-allocation.ts), so the
 * stream categories are that list, not a second copy of it (less the ids of records kept inside
 * another aggregate's stream).
 */
export const streamCategories = IdCategory.exclude(recordIdCategories).options;
export type StreamCategory = (typeof streamCategories)[number];

export type TenantStream = `tenant-${number}`;
export type UserStream = `user-${number}`;
/** An invitation is keyed by its tenant and a keyed hash of the invited address (gateway/auth/signed-links.ts). */
export type InviteStream = `invite-${number}-${string}`;
export type SellerStream = `seller-${number}`;
export type IntegrationStream = `integration-${number}`;
export type RecipientStream = `recipient-${number}`;
export type BillingStream = `billing-${number}`;
export type PartnerStream = `partner-${number}`;
export type PlanStream = `plan-${number}`;
export type JobStream = `job-${number}`;

export const tenantStream = (tenantId: number): TenantStream => `tenant-${tenantId}`;
export const userStream = (userId: number): UserStream => `user-${userId}`;
export const inviteStream = (tenantId: number, emailKey: string): InviteStream =>
  `invite-${tenantId}-${emailKey}`;
export const sellerStream = (sellerId: number): SellerStream => `seller-${sellerId}`;
export const integrationStream = (integrationId: number): IntegrationStream => `integration-${integrationId}`;
export const recipientStream = (recipientId: number): RecipientStream => `recipient-${recipientId}`;
export const billingStream = (subscriptionId: number): BillingStream => `billing-${subscriptionId}`;
export const partnerStream = (partnerId: number): PartnerStream => `partner-${partnerId}`;
export const planStream = (planId: number): PlanStream => `plan-${planId}`;
export const jobStream = (jobId: number): JobStream => `job-${jobId}`;
