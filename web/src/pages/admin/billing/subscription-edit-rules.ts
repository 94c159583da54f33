import type {
  AdminBillingSubscription,
  SubscriptionProduct,
  SubscriptionProductChange,
} from '../../../../../contracts/api/billing';
import { maxProductQuantity, PaymentMethod } from '../../../../../contracts/events/billing';

/**
 * The rules of the admin edit-subscription form (admin.md sections 4, 5 and 9), kept apart from the
 * modal so they are tested without a browser: which payment methods are offered, which product rows
 * count as changed, and the dates an admin may pick.
 */

export const paymentMethodLabels: Record<PaymentMethod, string> = {
  manual: 'Manual',
  send_invoice: 'Send invoice',
  card: 'Card',
  charge_automatically: 'Charge automatically',
};

/** Manual until a Stripe customer exists; then the Stripe methods only (the current one stays shown). */
export const paymentMethodChoices = (subscription: Pick<AdminBillingSubscription, 'StripeCustomerId'>) =>
  PaymentMethod.options
    .filter((method) => method !== 'manual' || subscription.StripeCustomerId === null)
    .map((value) => ({ value, label: paymentMethodLabels[value] }));

/** A product row of the form: what the subscription holds, with the admin's edits on top. */
export type ProductRow = {
  Identifier: string;
  /** As stored; null for a row the admin added. */
  stored: SubscriptionProduct | null;
  /** The quantity field as typed. */
  quantity: string;
  deleted: boolean;
};

export type ProductMark = 'new' | 'expiring' | 'deleted' | null;

/** admin.md section 4: product rows are marked new, expiring or deleted. */
export const markOf = (row: ProductRow, today: Date): ProductMark => {
  if (row.deleted) return 'deleted';
  if (row.stored === null) return 'new';
  const expires = row.stored.ExpiresAt ? new Date(row.stored.ExpiresAt) : null;
  return expires && expires.getTime() >= midnightOf(today).getTime() ? 'expiring' : null;
};

export const midnightOf = (day: Date) =>
  new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()));

/** Only active, non-expired rows are listed (expiry compared with today at midnight). */
export const productRowsOf = (products: readonly SubscriptionProduct[], today: Date): ProductRow[] =>
  products
    .filter(
      (product) =>
        product.Active &&
        (product.ExpiresAt === null || new Date(product.ExpiresAt).getTime() >= midnightOf(today).getTime()),
    )
    .map((product) => ({
      Identifier: product.Identifier,
      stored: product,
      quantity: String(product.Quantity),
      deleted: false,
    }));

export const quantityError = (quantity: string): string | null => {
  if (!/^\d{1,5}$/.test(quantity.trim()))
    return `Quantity must be a whole number from 0 to ${maxProductQuantity}.`;
  return Number(quantity) > maxProductQuantity
    ? `Quantity must be a whole number from 0 to ${maxProductQuantity}.`
    : null;
};

/** admin.md section 9: only rows with a quantity set (changed), new, or deleted are sent. */
export const productChangesOf = (rows: readonly ProductRow[]): SubscriptionProductChange[] =>
  rows.flatMap((row): SubscriptionProductChange[] => {
    if (row.deleted) return row.stored ? [{ Identifier: row.Identifier, Delete: true }] : [];
    const quantity = Number(row.quantity);
    if (row.stored === null) return [{ Identifier: row.Identifier, Quantity: quantity, Active: true }];
    return quantity === row.stored.Quantity ? [] : [{ Identifier: row.Identifier, Quantity: quantity }];
  });

/** The first day an admin may pick for a trial end or a resume date: tomorrow (UTC), as YYYY-MM-DD. */
export const firstPickableDay = (today: Date) =>
  new Date(midnightOf(today).getTime() + 86_400_000).toISOString().slice(0, 10);

export const pickableDateError = (value: string, today: Date): string | null =>
  value !== '' && value < firstPickableDay(today) ? 'Pick a date after today.' : null;
