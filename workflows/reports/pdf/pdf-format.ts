import type { Currency } from '../../../contracts/events/tenant';

/**
 * How reports print figures (ADR 36): money in the tenant's currency through Intl.NumberFormat
 * (two decimals, the currency's usual locale), days with up to one decimal, dates as "27 May 2024"
 * in UTC, as the periods are UTC days. Tests format their expected figures with the same rules.
 */
const localeOf: Record<Currency, string> = { USD: 'en-US', GBP: 'en-GB', EUR: 'en-IE' };

const moneyFormats = new Map<string, Intl.NumberFormat>();
const moneyFormat = (currency: Currency, compact: boolean) => {
  const key = `${currency}:${compact}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(localeOf[currency], {
      style: 'currency',
      currency,
      ...(compact ? { notation: 'compact', maximumFractionDigits: 1 } : {}),
    });
    moneyFormats.set(key, format);
  }
  return format;
};

/** Cents as money: 123456 -> "$1,234.56". */
export const money = (cents: number, currency: Currency) => moneyFormat(currency, false).format(cents / 100);

/** Cents as short money for chart axes: 123456789 -> "$1.2M". */
export const compactMoney = (cents: number, currency: Currency) =>
  moneyFormat(currency, true).format(cents / 100);

const countFormat = new Intl.NumberFormat('en-US');
/** A count with thousands separators: 55000 -> "55,000". */
export const count = (value: number) => countFormat.format(value);

const daysFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
export const days = (value: number | null) => (value === null ? 'n/a' : `${daysFormat.format(value)} days`);

const percentFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
/** A share between 0 and 1 as a percentage: 0.256 -> "25.6%". */
export const share = (value: number | null) =>
  value === null ? 'n/a' : `${percentFormat.format(value * 100)}%`;
/** A value already in percent: 93.5 -> "93.5%". */
export const percent = (value: number | null) => (value === null ? 'n/a' : `${percentFormat.format(value)}%`);

const dayFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const shortDayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const monthFormat = new Intl.DateTimeFormat('en-GB', { month: 'short', year: '2-digit', timeZone: 'UTC' });
const longMonthFormat = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

const dateOf = (iso: string) => new Date(`${iso.slice(0, 10)}T00:00:00.000Z`);
/** "2024-05-27" -> "27 May 2024". */
export const longDate = (iso: string) => dayFormat.format(dateOf(iso));
/** "2024-05-27" -> "27 May". */
export const shortDate = (iso: string) => shortDayFormat.format(dateOf(iso));
/** "2024-05-01" -> "May 24". */
export const shortMonth = (iso: string) => monthFormat.format(dateOf(iso));
/** "2024-05-01" -> "May 2024". */
export const longMonth = (iso: string) => longMonthFormat.format(dateOf(iso));

/** "27 May - 2 Jun 2024" for a week, "May 2024" for a month. */
export const periodLabel = (period: { start: string; end: string }, frequency: 'weekly' | 'monthly') =>
  frequency === 'monthly' ? longMonth(period.start) : `${shortDate(period.start)} - ${longDate(period.end)}`;

/** The relative change from `before` to `now`, or null when there is nothing to compare with. */
export const changeOf = (now: number, before: number): number | null =>
  before === 0 ? null : (now - before) / Math.abs(before);

/** A relative change as "+12.5%" or "-3%". */
export const signedShare = (change: number) =>
  `${change > 0 ? '+' : ''}${percentFormat.format(change * 100)}%`;
