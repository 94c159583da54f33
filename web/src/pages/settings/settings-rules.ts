import {
  defaultReportingSettings,
  type Currency,
  type ReportingSettings,
  type RetentionPeriod,
} from '../../../../contracts/events/tenant';
import type { FormErrors } from '../../forms/field-errors';

export const weekdays = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

/** 1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st, 22nd. */
export const ordinal = (day: number): string => {
  const teen = day % 100 >= 11 && day % 100 <= 13;
  const suffix = teen ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[day % 10] ?? 'th');
  return `${day}${suffix}`;
};

/** portal.md section 9: weekly Sunday to Saturday (0 to 6); monthly 1 to 28 labelled Every N. */
export const weekdayOptions = weekdays.map((label, day) => ({ value: String(day), label }));
export const monthDayOptions = Array.from({ length: 28 }, (_, index) => ({
  value: String(index + 1),
  label: `Every ${ordinal(index + 1)}`,
}));

export const currencyOptions: { value: Currency; label: string }[] = [
  { value: 'USD', label: 'USD' },
  { value: 'GBP', label: 'GBP' },
  { value: 'EUR', label: 'EUR' },
];

export const retentionOptions: { value: RetentionPeriod; label: string }[] = [
  { value: 'AUTO', label: 'Automatic (3 or 12 months, by how often customers buy)' },
  { value: 'TRAILING24MONTHS', label: 'Trailing 24 months' },
  { value: 'TRAILING12MONTHS', label: 'Trailing 12 months' },
  { value: 'TRAILING3MONTHS', label: 'Trailing 3 months' },
  { value: 'TRAILING1MONTH', label: 'Trailing 1 month' },
];

/** portal.md section 5: WeeklyDay 2, MonthlyDay 7, Currency USD and retention AUTO when missing. */
export const reportingWithDefaults = (
  reporting: Partial<ReportingSettings> | null | undefined,
): ReportingSettings => ({
  ...defaultReportingSettings,
  ...Object.fromEntries(
    Object.entries(reporting ?? {}).filter(([, value]) => value !== null && value !== undefined),
  ),
});

export const companyMessages = {
  updated: 'Successfully updated the company.',
  updateFailed: 'There was an error while updating the company.',
  reportingUpdated: 'Successfully updated reporting settings',
  reportingFailed: 'There was an error while updating the reporting settings.',
  demoDisabled: 'Billing is disabled while in a demo tenant. Please switch.',
  nameRequired: 'Name is required',
  displayNameRequired: 'Display name for client reports is required',
} as const;

/** portal.md section 5, company settings: a name; a firm also needs its display name for client reports. */
export const companyErrors = (values: {
  Name: string;
  FriendlyName: string;
  Classification: string;
}): FormErrors => {
  const errors: FormErrors = {};
  if (!values.Name.trim()) errors.Name = companyMessages.nameRequired;
  if (values.Classification === 'FIRM' && !values.FriendlyName.trim())
    errors.FriendlyName = companyMessages.displayNameRequired;
  return errors;
};

/** portal.md section 2.3, logo upload: one file, jpeg, png, gif or svg. */
export const logoTypes = ['image/jpeg', 'image/png', 'image/gif', 'image/svg+xml'] as const;
export const logoTypeMessage = 'The logo must be a JPEG, PNG, GIF or SVG image.';

export const logoFileError = (files: readonly File[]): string | null => {
  if (files.length === 0) return 'Choose a logo file.';
  if (files.length > 1) return 'Upload one file only.';
  const file = files[0]!;
  const byExtension = /\.(jpe?g|png|gif|svg)$/i.test(file.name);
  return (logoTypes as readonly string[]).includes(file.type) || (file.type === '' && byExtension)
    ? null
    : logoTypeMessage;
};
