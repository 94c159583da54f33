import { z } from 'zod';
import { logoMaxBytes, UpdateTenantRequest } from '../../../../contracts/api/tenants';
import {
  BusinessModel,
  defaultReportingSettings,
  LogoContentType,
  TenantClassification,
  type Currency,
  type ReportingSettings,
  type RetentionPeriod,
} from '../../../../contracts/events/tenant';

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

/**
 * The zones the scheduled sends can follow: the runtime's IANA list (UTC first), labelled with the
 * zone's current offset so a reader can find theirs.
 */
export const timeZoneOptions = (now = new Date()): { value: string; label: string }[] => {
  const offsetOf = (zone: string) =>
    new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' })
      .formatToParts(now)
      .find((part) => part.type === 'timeZoneName')?.value ?? '';
  const zones = Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC');
  return ['UTC', ...zones].map((zone) => ({
    value: zone,
    label: `${zone.replaceAll('_', ' ')} (${offsetOf(zone)})`,
  }));
};

export const companyMessages = {
  updated: 'Successfully updated the company.',
  updateFailed: 'There was an error while updating the company.',
  reportingUpdated: 'Successfully updated reporting settings',
  reportingFailed: 'There was an error while updating the reporting settings.',
  demoDisabled: 'Billing is disabled while in a demo tenant. Please switch.',
  nameRequired: 'Name is required',
  displayNameRequired: 'Display name for client reports is required',
} as const;

const tenantFields = UpdateTenantRequest.shape;
const clientDefaults = tenantFields.ClientsPartner.unwrap().shape;

/** A select's value as the request's day: blank (no change) becomes absent. */
const dayOrNoChange = (day: z.ZodNumber) =>
  z
    .string()
    .transform((value) => (value === '' ? undefined : Number(value)))
    .pipe(day.optional());

/**
 * The company form (portal.md section 5): the request's rules, a name required, and a firm's display
 * name for client reports; the industry typed as text, a blank business model or client day allowed.
 */
export const CompanyForm = z
  .object({
    Name: tenantFields.Name.unwrap().min(1, companyMessages.nameRequired),
    Classification: TenantClassification,
    BusinessModel: z.union([z.literal(''), BusinessModel]),
    Industry: tenantFields.Industry.unwrap().unwrap().shape.FreeForm,
    FriendlyName: tenantFields.FriendlyName.unwrap().unwrap(),
    ClientWeeklyDay: dayOrNoChange(clientDefaults.WeeklyDay.unwrap().unwrap()),
    ClientMonthlyDay: dayOrNoChange(clientDefaults.MonthlyDay.unwrap().unwrap()),
  })
  .refine((values) => values.Classification !== 'FIRM' || values.FriendlyName !== '', {
    path: ['FriendlyName'],
    message: companyMessages.displayNameRequired,
  });
export type CompanyForm = z.output<typeof CompanyForm>;
export type CompanyValues = z.input<typeof CompanyForm>;

/** portal.md section 2.3, logo upload: one file, jpeg, png, gif or svg, at most 2 MB (the server's limit). */
export const logoTypes = LogoContentType.options;
export const logoTypeMessage = 'The logo must be a JPEG, PNG, GIF or SVG image.';
/** The gateway's own words for a file over the limit. */
export const logoSizeMessage = `The logo must be at most ${logoMaxBytes / 1024 / 1024} MB.`;

export const logoFileError = (files: readonly File[]): string | null => {
  if (files.length === 0) return 'Choose a logo file.';
  if (files.length > 1) return 'Upload one file only.';
  const file = files[0]!;
  const byExtension = /\.(jpe?g|png|gif|svg)$/i.test(file.name);
  if (!((logoTypes as readonly string[]).includes(file.type) || (file.type === '' && byExtension)))
    return logoTypeMessage;
  return file.size > logoMaxBytes ? logoSizeMessage : null;
};

/** The logo form: its one field is the chosen files (the server's 422 names it `file` too). */
export const LogoForm = z.object({
  file: z
    .array(z.instanceof(File))
    .superRefine((files, context) => {
      const problem = logoFileError(files);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .transform((files) => files[0]!),
});
