import type { PaymentStatus } from '../../../../contracts/events/billing';

const dayMs = 24 * 60 * 60 * 1000;

/** portal.md section 4: 0 unless trialing, otherwise the whole days until StartedAt (the trial's end). */
export const trialDaysRemaining = (
  subscription: { PaymentStatus: PaymentStatus; StartedAt: string } | null,
  now: Date,
): number => {
  if (subscription?.PaymentStatus !== 'trialing') return 0;
  const left = new Date(subscription.StartedAt).getTime() - now.getTime();
  return Number.isFinite(left) && left > 0 ? Math.floor(left / dayMs) : 0;
};
