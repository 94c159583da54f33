import type { RecipientResponse } from '../../contracts/api/recipients';
import type { PdfFrequency, RecipientSelection, SkippedRecipient } from './report-job-input';

/** The recipient fields the choice reads (a row of the recipients read model). */
export type RecipientRow = Pick<
  RecipientResponse,
  'Id' | 'STATE' | 'SendWeekly' | 'SendMonthly' | 'TrackWelcomeDate' | 'TrackWeeklyDate' | 'TrackMonthlyDate'
> & { SubscriberId: number | null; Subscriber: { Email: string | null } };

export type RecipientRules = {
  pdf: PdfFrequency | null;
  selection: RecipientSelection;
  noOverride: boolean;
  now: Date;
  timeZone: string;
  /** PLATFORM_ADMIN_EMAILS, lower case. */
  adminEmails: readonly string[];
  isDemoRecipient: (email: string) => boolean;
};

/** Texts of a skipped recipient, in the job's result (the admin jobs table shows them). */
export const skipReasons = {
  inactive: 'The subscription is not active.',
  unknown: 'Not a recipient of this seller.',
  noEmail: 'The recipient has no email address.',
  demo: 'Demo recipients never receive email.',
  alreadyThisPeriod: 'Already sent this period (no override).',
} as const;

const isActive = (row: RecipientRow) => row.STATE === 'ACTIVE' || row.STATE === 'ADMIN';

/** `2026-11` in the zone: the calendar month a date falls in for the tenant. */
const monthIn = (date: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' }).format(date);

const sixDaysMs = 6 * 24 * 60 * 60 * 1000;

/**
 * noOverride (admin.md section 3): a weekly report tracked in the past six days, or a monthly one in
 * the same calendar month of the tenant's zone, was already sent this period. Six days, not seven, so
 * that next week's scheduled send is never caught by a send a few minutes late this week.
 */
export const sentThisPeriod = (
  row: RecipientRow,
  rules: Pick<RecipientRules, 'pdf' | 'now' | 'timeZone'>,
): boolean => {
  if (rules.pdf === 'weekly' && row.TrackWeeklyDate !== null)
    return rules.now.getTime() - Date.parse(row.TrackWeeklyDate) < sixDaysMs;
  if (rules.pdf === 'monthly' && row.TrackMonthlyDate !== null)
    return monthIn(new Date(row.TrackMonthlyDate), rules.timeZone) === monthIn(rules.now, rules.timeZone);
  return false;
};

/** Whether an active subscription takes this report when nobody chose recipients. */
const takes = (row: RecipientRow, pdf: PdfFrequency | null): boolean => {
  switch (pdf) {
    case 'weekly':
      return row.SendWeekly;
    case 'monthly':
      return row.SendMonthly;
    case 'welcome':
      return row.TrackWelcomeDate === null;
    case 'scorecard':
    case 'ondemand':
      return true;
    case null:
      return false;
  }
};

const isAdminRow = (row: RecipientRow, adminEmails: readonly string[]) =>
  row.STATE === 'ADMIN' ||
  (row.Subscriber.Email !== null && adminEmails.includes(row.Subscriber.Email.trim().toLowerCase()));

/**
 * Who receives a report (issue 14, Sending): the chosen subscriptions, or the seller's active ones that
 * take this frequency; admins only with `admin`; never a demo address; with noOverride, nobody who
 * already got this frequency this period. Chosen recipients that cannot receive it are listed with
 * the reason; subscriptions merely not subscribed to this frequency are not.
 */
export const chooseRecipients = (
  rows: readonly RecipientRow[],
  rules: RecipientRules,
): { recipientIds: number[]; skipped: SkippedRecipient[] } => {
  const { selection } = rules;
  if (selection.kind === 'nobody' || rules.pdf === null) return { recipientIds: [], skipped: [] };
  const skipped: SkippedRecipient[] = [];
  let candidates: RecipientRow[];
  switch (selection.kind) {
    case 'recipients': {
      const byId = new Map(rows.map((row) => [row.Id, row]));
      candidates = [];
      for (const id of new Set(selection.recipientIds)) {
        const row = byId.get(id);
        if (row) candidates.push(row);
        else skipped.push({ recipientId: id, reason: skipReasons.unknown });
      }
      break;
    }
    case 'subscribers':
      candidates = rows.filter(
        (row) => row.SubscriberId !== null && selection.userIds.includes(row.SubscriberId),
      );
      break;
    case 'admins':
      candidates = rows.filter((row) => isActive(row) && isAdminRow(row, rules.adminEmails));
      break;
    case 'subscribed':
      candidates = rows.filter((row) => isActive(row) && takes(row, rules.pdf));
      break;
  }
  const recipientIds: number[] = [];
  for (const row of candidates) {
    const email = row.Subscriber.Email?.trim() ?? '';
    const reason = !isActive(row)
      ? skipReasons.inactive
      : email === ''
        ? skipReasons.noEmail
        : rules.isDemoRecipient(email)
          ? skipReasons.demo
          : rules.noOverride && sentThisPeriod(row, rules)
            ? skipReasons.alreadyThisPeriod
            : null;
    if (reason === null) recipientIds.push(row.Id);
    else skipped.push({ recipientId: row.Id, reason });
  }
  return { recipientIds, skipped };
};
