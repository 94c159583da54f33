import type { SellerReportType } from '../../../../contracts/api/jobs';
import type { ArchivedReportType } from '../../../../contracts/api/reports';

/** The catalogue's report texts (portal.md section 8, admin.md section 8). */
export const reportTexts = {
  requestReceivedTitle: 'Report Request Received',
  requestReceivedNote: 'Please check your email in a few minutes.',
  sendErrorTitle: 'Error Sending Report',
  needRecipient: 'Select at least one recipient.',
  needSelf: 'Select yourself among the recipients.',
  demoRecipient: 'Demo recipients do not receive email.',
  errorPrefix: 'There was an error: ',
  confirmDelete: (name: string) =>
    `Delete ${name} as a report recipient? They will no longer receive reports.`,
} as const;

export const sellerReportLabels: Record<SellerReportType, string> = {
  weekly: 'Weekly report',
  monthly: 'Monthly report',
  scorecard: 'Scorecard',
};

export const archivedTypeLabels: Record<ArchivedReportType, string> = {
  CUSTOMER_SHEET: 'Customer sheet',
  PRODUCT_SHEET: 'Product sheet',
  PRIORITIZED_INVOICES_SHEET: 'Prioritized invoices',
  AR_FORECAST_SHEET: 'AR forecast sheet',
  MONTHLY_REPORT: 'Monthly report',
  WEEKLY_REPORT: 'Weekly report',
  SCORECARD_REPORT: 'Scorecard',
  ONDEMAND_REPORT: 'On-demand report',
  WELCOME_REPORT: 'Welcome report',
  BENCHMARKS_REPORT: 'Benchmarks',
  CLIENT_PERFORMANCE_REPORT: 'Client performance',
};

export const dateTimeOf = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const relativeUnits: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** `5 minutes ago`, `yesterday`, `just now`: how long ago `iso` was, as of `now`. */
export const relativeTimeOf = (iso: string, now: Date): string => {
  const elapsed = now.getTime() - Date.parse(iso);
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, ms] of relativeUnits)
    if (Math.abs(elapsed) >= ms) return format.format(-Math.trunc(elapsed / ms), unit);
  return 'just now';
};

export const fileSizeOf = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${Math.round(bytes / 1024)} KB`
      : `${(bytes / 1048576).toFixed(1)} MB`;
