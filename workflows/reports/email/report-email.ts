import { renderEmail } from '../../email/render-email';
import type { EmailAttachment, OutgoingEmail } from '../../email/smtp-mailer';
import { escapeHtml, layout, type EmailContent } from '../../email/templates/layout';
import type { RenderedReport } from '../rendered-report';
import { oneClickUnsubscribeLinkOf } from './unsubscribe-token';

/**
 * The email that carries a seller's reports to one recipient (issue 14): a short summary of the
 * period (the headline figures the caller chose), the list of attached files, a link to the Reports
 * page, and for the weekly and monthly reports a footer link that turns that recipient's weekly or
 * monthly sending off (unsubscribe-token.ts). HTML through the shared MJML layout, plus a plain-text part.
 */
export type ReportEmailFrequency = 'weekly' | 'monthly' | 'welcome' | 'scorecard' | 'ondemand' | 'benchmarks';

/** One headline figure, already formatted in the tenant's currency (`$12,345.67`, `+8.2%`). */
export type ReportHighlight = {
  label: string;
  value: string;
  /** A short comparison under the value: `+8.2% vs last week`. */
  note?: string;
};

export type ReportEmailInput = {
  to: string;
  /** The recipient's given name, or null for a contact without one. */
  recipientName: string | null;
  tenantName: string;
  sellerName: string;
  frequency: ReportEmailFrequency;
  /** What the report covers: `Week of 17 Nov 2025`, `October 2025`. */
  periodLabel: string;
  /** Three or four figures; more are cut to four so the summary stays short. */
  highlights: readonly ReportHighlight[];
  attachments: readonly RenderedReport[];
  /** The Reports page of the app (its archive keeps every report sent). */
  reportsUrl: string;
  /** Weekly and monthly emails: the signed link of unsubscribe-token.ts; null when there is none. */
  unsubscribeUrl: string | null;
  /** The tenant's approved logo, shown 30 px high (portal.md section 2.3). */
  logoUrl?: string | null;
};

const titles: Record<ReportEmailFrequency, string> = {
  weekly: 'weekly report',
  monthly: 'monthly report',
  welcome: 'welcome report',
  scorecard: 'scorecard',
  ondemand: 'report',
  benchmarks: 'benchmarks report',
};

const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** The footer link's words; only the weekly and monthly sends can be switched off by a link. */
export const stopReceivingLabel = (frequency: ReportEmailFrequency): string | null =>
  frequency === 'weekly' || frequency === 'monthly' ? `Stop receiving the ${frequency} report` : null;

/** `12 KB`, `1.4 MB`: the size shown beside an attached file. */
export const sizeLabel = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const kindLabel = (report: RenderedReport) => (report.extension === 'pdf' ? 'PDF' : 'Excel workbook');

const highlightsTable = (highlights: readonly ReportHighlight[]) => {
  const cells = highlights.map(
    (h) =>
      `<td style="padding:12px;border:1px solid #e5e7eb;border-radius:6px;vertical-align:top;width:${Math.floor(100 / highlights.length)}%">` +
      `<div style="font-size:12px;color:#6b7280;text-transform:uppercase;letter-spacing:0.04em">${escapeHtml(h.label)}</div>` +
      `<div style="font-size:20px;font-weight:bold;color:#111827;padding-top:4px">${escapeHtml(h.value)}</div>` +
      (h.note
        ? `<div style="font-size:12px;color:#6b7280;padding-top:2px">${escapeHtml(h.note)}</div>`
        : '') +
      '</td>',
  );
  return `<table role="presentation" cellspacing="6" cellpadding="0" style="width:100%;border-collapse:separate"><tr>${cells.join('')}</tr></table>`;
};

type SizeOf = (report: RenderedReport) => string;
const sizeOfBytes: SizeOf = (report) => sizeLabel(report.bytes.byteLength);

/** The attached files as an HTML list (name, kind and size). */
export const attachmentList = (reports: readonly RenderedReport[], sizeOf: SizeOf = sizeOfBytes) =>
  `<ul style="padding-left:20px;margin:0">${reports
    .map(
      (r) =>
        `<li style="padding:2px 0"><b>${escapeHtml(r.displayName)}</b> <span style="color:#6b7280">(${kindLabel(r)}, ${escapeHtml(sizeOf(r))})</span></li>`,
    )
    .join('')}</ul>`;

export const reportEmail = (input: ReportEmailInput): EmailContent => reportEmailOf(input, sizeOfBytes);

const reportEmailOf = (input: ReportEmailInput, sizeOf: SizeOf): EmailContent => {
  const title = titles[input.frequency];
  const subject = `${input.sellerName}: your ${title} for ${input.periodLabel}`;
  const highlights = input.highlights.slice(0, 4);
  const stopLabel = input.unsubscribeUrl ? stopReceivingLabel(input.frequency) : null;
  const greeting = input.recipientName?.trim() ? `Hi ${input.recipientName.trim()},` : 'Hello,';
  const intro = `Here is the ${title} of ${input.sellerName} for ${input.periodLabel}.`;
  const attachedNote =
    input.attachments.length === 0
      ? 'No files are attached to this email; the report is in your Ledgerwise archive.'
      : input.attachments.length === 1
        ? 'The report is attached:'
        : `The ${input.attachments.length} reports are attached:`;
  const logo = input.logoUrl
    ? `<img src="${escapeHtml(input.logoUrl)}" alt="${escapeHtml(input.tenantName)}" height="30" style="height:30px;width:auto;display:block" />`
    : null;

  const paragraphs = [
    ...(logo ? [logo] : []),
    escapeHtml(greeting),
    `Here is the ${escapeHtml(title)} of <b>${escapeHtml(input.sellerName)}</b> for <b>${escapeHtml(input.periodLabel)}</b>.`,
    ...(highlights.length > 0 ? [highlightsTable(highlights)] : []),
    escapeHtml(attachedNote),
    ...(input.attachments.length > 0 ? [attachmentList(input.attachments, sizeOf)] : []),
    ...(stopLabel && input.unsubscribeUrl
      ? [
          `<span style="font-size:13px;color:#6b7280">You receive this email as a report recipient of ${escapeHtml(input.tenantName)}. <a href="${escapeHtml(input.unsubscribeUrl)}" style="color:#6b7280">${escapeHtml(stopLabel)}</a></span>`,
        ]
      : []),
  ];

  const text = [
    greeting,
    intro,
    ...(highlights.length > 0
      ? [highlights.map((h) => `${h.label}: ${h.value}${h.note ? ` (${h.note})` : ''}`).join('\n')]
      : []),
    input.attachments.length === 0
      ? attachedNote
      : `${attachedNote}\n${input.attachments
          .map((r) => `- ${r.displayName} (${r.fileName}, ${sizeLabel(r.bytes.byteLength)})`)
          .join('\n')}`,
    `Every report sent is kept in your archive: ${input.reportsUrl}`,
    ...(stopLabel && input.unsubscribeUrl ? [`${stopLabel}: ${input.unsubscribeUrl}`] : []),
  ].join('\n\n');

  return {
    subject,
    mjml: layout({
      preview: `${capitalised(title)} of ${input.sellerName} for ${input.periodLabel}`,
      heading: `${capitalised(title)}: ${input.periodLabel}`,
      paragraphs,
      action: { label: 'Open your reports', url: input.reportsUrl },
      footnote: `Sent by Ledgerwise for ${input.tenantName}.`,
    }),
    text,
  };
};

/**
 * The Message-ID of a report email: the same for every attempt to send one job's report to one
 * recipient, so a retried send is recognisable as the same message (by the archive of sent mail,
 * by MailDev in the tests, and by receiving servers that drop duplicates).
 */
export const reportMessageId = (jobId: number, recipientId: number): string =>
  `<${jobId}.${recipientId}@ledgerwise>`;

export const attachmentsOf = (reports: readonly RenderedReport[]): EmailAttachment[] =>
  reports.map((r) => ({ filename: r.fileName, content: r.bytes, contentType: r.contentType }));

/**
 * The HTML of report emails by shape, with a slot (`lwslot<n>z`) where each name, figure, label or
 * link goes. Compiling the MJML took about 8 ms an email, most of a scheduled send's email cost
 * (docs/adr/0038, the scheduled send in batches); emails of one shape (frequency, number of figures
 * and files, logo and stop link or not) differ only in those texts, all escaped by escapeHtml and
 * passed through MJML unchanged, so the compiled HTML of the first is filled in for the others.
 * Bounded: a few dozen shapes exist.
 */
const compiledShapes = new Map<string, string>();
const MAX_SHAPES = 200;
const slotPattern = /lwslot(\d+)z/g;

/** The email's HTML, from the compiled shape when there is one (the same HTML MJML would give). */
const reportEmailHtml = async (input: ReportEmailInput): Promise<string> => {
  const values: string[] = [];
  const slot = (value: string) => {
    values.push(value);
    return `lwslot${values.length - 1}z`;
  };
  const sizes = new Map<RenderedReport, string>();
  const shaped: ReportEmailInput = {
    ...input,
    recipientName: input.recipientName?.trim() ? slot(input.recipientName.trim()) : null,
    tenantName: slot(input.tenantName),
    sellerName: slot(input.sellerName),
    periodLabel: slot(input.periodLabel),
    highlights: input.highlights.slice(0, 4).map((h) => ({
      label: slot(h.label),
      value: slot(h.value),
      ...(h.note ? { note: slot(h.note) } : {}),
    })),
    attachments: input.attachments.map((report) => {
      const shapedReport = { ...report, displayName: slot(report.displayName) };
      sizes.set(shapedReport, slot(sizeLabel(report.bytes.byteLength)));
      return shapedReport;
    }),
    reportsUrl: slot(input.reportsUrl),
    unsubscribeUrl: input.unsubscribeUrl ? slot(input.unsubscribeUrl) : null,
    logoUrl: input.logoUrl ? slot(input.logoUrl) : null,
  };
  const { mjml, subject } = reportEmailOf(shaped, (report) => sizes.get(report) ?? '');
  let html = compiledShapes.get(mjml);
  if (html === undefined) {
    html = (await renderEmail(input.to, { mjml, subject, text: '' })).html;
    if (compiledShapes.size >= MAX_SHAPES) compiledShapes.clear();
    compiledShapes.set(mjml, html);
  }
  return html.replace(slotPattern, (_, index: string) => escapeHtml(values[Number(index)] ?? ''));
};

/** The whole message for the mailer: rendered HTML, text, attachments, Message-ID and List-Unsubscribe. */
export const reportEmailMessage = async (
  input: ReportEmailInput & { jobId: number; recipientId: number },
): Promise<OutgoingEmail> => ({
  ...(await reportEmailContent(input)),
  attachments: attachmentsOf(input.attachments),
  messageId: reportMessageId(input.jobId, input.recipientId),
  ...(input.unsubscribeUrl && stopReceivingLabel(input.frequency)
    ? { unsubscribeUrl: oneClickUnsubscribeLinkOf(input.unsubscribeUrl) }
    : {}),
});

/** Subject, text and HTML of a report email; the HTML compiled once per shape (reportEmailHtml). */
const reportEmailContent = async (input: ReportEmailInput) => {
  const content = reportEmail(input);
  return { to: input.to, subject: content.subject, html: await reportEmailHtml(input), text: content.text };
};

/** The HTML MJML gives for this email, compiled afresh (the tests compare the compiled shapes with it). */
export const reportEmailHtmlUncached = async (input: ReportEmailInput): Promise<string> =>
  (await renderEmail(input.to, reportEmail(input))).html;
