import type { RiskLevel } from '../../../../contracts/api/receivables';

/** Day figures of the receivables API are plain days; metric rows hold hundredths. */
export const daysOrDash = (days: number | null | undefined): string =>
  days === null || days === undefined ? '—' : `${days.toFixed(1)} days`;

export const riskTexts: Record<RiskLevel, string> = { low: 'Low', medium: 'Medium', high: 'High' };

/** Tremor badge colours by risk; the text says the level, so colour is never the only sign. */
export const riskColors: Record<RiskLevel, 'emerald' | 'amber' | 'red'> = {
  low: 'emerald',
  medium: 'amber',
  high: 'red',
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
