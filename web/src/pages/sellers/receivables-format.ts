import type { RiskLevel } from '../../../../contracts/api/receivables';

/** Day figures of the receivables API are plain days; metric rows hold hundredths. */
export const daysOrDash = (days: number | null | undefined): string =>
  days === null || days === undefined ? '—' : `${days.toFixed(1)} days`;

export const riskTexts: Record<RiskLevel, string> = { low: 'Low', medium: 'Medium', high: 'High' };

/**
 * Risk pill colours: dark text on a pale ground (Tremor's badge red measured 4.2:1, under axe's 4.5).
 * The text says the level, so colour is never the only sign.
 */
export const riskClasses: Record<RiskLevel, string> = {
  low: 'bg-emerald-50 text-emerald-800 ring-emerald-600/30',
  medium: 'bg-amber-50 text-amber-900 ring-amber-600/30',
  high: 'bg-red-50 text-red-800 ring-red-600/30',
};

export const dayText = (iso: string | null): string =>
  iso
    ? new Date(iso).toLocaleDateString('en-US', {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        timeZone: 'UTC',
      })
    : '—';

export const invoicesText = (count: number): string => `${count} ${count === 1 ? 'invoice' : 'invoices'}`;
