import { AppError } from '../../contracts/errors';
import type { SellerFeatureFlag } from '../../contracts/events/seller';

const booleanFlags = [
  'customerSheet.showOtherCredits',
  'customerSheet.showSegmentation',
  'crm.PushSalesRep',
  'forecasts.Receivables.Enabled',
] as const;
const idListFlags = ['exclusions.CustomerIds', 'exclusions.ProductIds'] as const;

/**
 * Flags only platform admins change (admin.md sections 2 and 6: the admin sellers table toggles
 * forecasting, CRM behaviour is the platform admin's settings card); the rest are the company's own
 * report choices, which its administrators make.
 */
export const platformAdminFlags: ReadonlySet<string> = new Set([
  'forecasts.Receivables.Enabled',
  'crm.PushSalesRep',
]);

const invalid = (flag: string, userMessage: string, fieldMessage: string) =>
  new AppError('validation', userMessage, { properties: { [flag]: fieldMessage } });

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T =>
  (list as readonly string[]).includes(value);

/** Tag inputs send text, so "42" is accepted as 42; anything that is not a positive whole number is refused. */
const toPositiveInteger = (item: unknown): number | null => {
  const number = typeof item === 'string' && /^\s*\d+\s*$/.test(item) ? Number(item) : item;
  return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? number : null;
};

/** Checks a flag's value as the caller sent it and returns it normalised (id lists de-duplicated, in order). */
export const parseSellerFeatureFlag = (flag: string, value: unknown): SellerFeatureFlag => {
  if (isOneOf(booleanFlags, flag)) {
    if (typeof value !== 'boolean')
      throw invalid(flag, `${flag} must be true or false.`, 'Must be true or false.');
    return { flag, value };
  }
  if (isOneOf(idListFlags, flag)) {
    const items = Array.isArray(value) ? (value as unknown[]) : null;
    const ids = items?.map(toPositiveInteger);
    if (!ids || ids.some((id) => id === null))
      throw invalid(flag, 'Exclusions accept integers only.', 'Integers only.');
    return { flag, value: [...new Set(ids as number[])] };
  }
  throw new AppError('validation', `Unknown feature flag: ${flag}.`, {
    properties: { flag: 'Unknown feature flag.' },
  });
};
