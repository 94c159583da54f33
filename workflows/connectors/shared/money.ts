/**
 * Platform amounts into the ledger's integer cents (contracts/ledger.ts). Decimal amounts (QuickBooks,
 * Xero) are read from their decimal text, not multiplied as floats, so 1.005 is 101 cents and 0.1 + 0.2
 * never leaks in; half a cent rounds away from zero.
 */
export const decimalToCents = (value: number | string): number => {
  const text = typeof value === 'number' ? decimalText(value) : value.trim();
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) throw new Error(`not an amount: ${text}`);
  const [, sign, whole = '', fraction = ''] = match;
  const digits = `${fraction}000`;
  let cents = Number(whole || '0') * 100 + Number(digits.slice(0, 2));
  if (Number(digits[2]) >= 5) cents += 1;
  if (!Number.isSafeInteger(cents)) throw new Error(`amount out of range: ${text}`);
  return sign === '-' && cents !== 0 ? -cents : cents;
};

/** A number as plain decimal text (no exponent), as the platform wrote it in its JSON. */
const decimalText = (value: number): string => {
  if (!Number.isFinite(value)) throw new Error(`not an amount: ${value}`);
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(6) : text;
};

/** An amount in a foreign currency converted at the platform's rate into the company's home currency. */
export const homeCents = (value: number | string, rate: number | string | null | undefined): number => {
  const cents = decimalToCents(value);
  const factor = rate === null || rate === undefined || rate === '' ? 1 : Number(rate);
  if (!Number.isFinite(factor) || factor <= 0) throw new Error(`not an exchange rate: ${rate}`);
  return factor === 1 ? cents : Math.round(cents * factor);
};

/**
 * Currencies whose smallest unit is the whole unit (Stripe's zero-decimal currencies): their minor
 * units are whole units, so cents are a hundred times more.
 */
const zeroDecimal = new Set('bif clp djf gnf jpy kmf krw mga pyg rwf ugx vnd vuv xaf xof xpf'.split(' '));
const threeDecimal = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

/** Stripe-style minor units of `currency` into cents of that currency. */
export const minorUnitsToCents = (amount: number, currency: string): number => {
  const code = currency.toLowerCase();
  if (zeroDecimal.has(code)) return amount * 100;
  if (threeDecimal.has(code)) return Math.round(amount / 10);
  return amount;
};
