import type { PaymentMethod, PaymentStatus, SubscriptionProduct } from '../../contracts/events/billing';

const dayMs = 24 * 60 * 60 * 1000;

/** Midnight (UTC) at the start of the day of `now`: "today" for the date rules of billing. */
export const startOfToday = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/** True when `date` falls on a day after today, the rule for start and resume dates. */
export const isAfterToday = (date: Date, now: Date) => date.getTime() >= startOfToday(now).getTime() + dayMs;

type TrialFacts = { paymentStatus: PaymentStatus; startedAt: string };

/** 0 unless trialing; otherwise the whole days left until StartedAt (portal.md section 4). */
export const trialDaysRemaining = (subscription: TrialFacts, now: Date): number => {
  if (subscription.paymentStatus !== 'trialing') return 0;
  return Math.max(0, Math.floor((Date.parse(subscription.startedAt) - now.getTime()) / dayMs));
};

/** The trial end (StartedAt) may be edited only while trialing or while the start is still ahead. */
export const isTrialEndEditable = (subscription: TrialFacts, now: Date) =>
  subscription.paymentStatus === 'trialing' || Date.parse(subscription.startedAt) > now.getTime();

/** Products that count: active and not expired, expiry compared with today at midnight. */
export const countingProducts = <P extends Pick<SubscriptionProduct, 'active' | 'expiresAt'>>(
  products: readonly P[],
  now: Date,
) =>
  products.filter(
    (product) =>
      product.active &&
      (product.expiresAt === null || Date.parse(product.expiresAt) >= startOfToday(now).getTime()),
  );

/** Quickstart: offer to contact support once used reaches purchased minus one. */
export const needsQuickstartSupport = ({ used, purchased }: { used: number; purchased: number }) =>
  used >= purchased - 1;

/** The payment methods that count as provided for the setup step (portal.md section 9). */
export const hasPaymentMethod = (paymentMethod: PaymentMethod | null) =>
  paymentMethod === 'manual' || paymentMethod === 'send_invoice' || paymentMethod === 'card';
