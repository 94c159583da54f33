import { renderEmail } from '../../email/render-email';
import type { OutgoingEmail } from '../../email/smtp-mailer';
import { escapeHtml, layout, type EmailContent } from '../../email/templates/layout';
import type { RenderedReport } from '../rendered-report';
import { attachmentList, attachmentsOf, reportMessageId, sizeLabel } from './report-email';

/**
 * The email that carries an advisor's Client Performance Summary (portal.md section 9): to the
 * advisor, or with the `admin` option to the platform admin who asked (the advisor is then named).
 * The summary or, from 30 clients, the sheet is attached. No stop link: nobody subscribes to it, an
 * admin sends it.
 */
export type ClientPerformanceEmailInput = {
  to: string;
  /** The recipient's given name; null or empty for a plain greeting. */
  recipientName: string | null;
  /** The advisor the summary is about; set when the email goes to an admin instead of them. */
  aboutAdvisor: string | null;
  clients: number;
  /** The month the figures cover: `October 2026`. */
  periodLabel: string;
  attachment: RenderedReport;
  /** The clients page of the app. */
  clientsUrl: string;
};

const clientsLabel = (count: number) => `${count} client${count === 1 ? '' : 's'}`;

export const clientPerformanceEmail = (input: ClientPerformanceEmailInput): EmailContent => {
  const whose = input.aboutAdvisor ? `${input.aboutAdvisor}'s` : 'your';
  const subject = input.aboutAdvisor
    ? `${input.aboutAdvisor}: Client Performance Summary for ${input.periodLabel}`
    : `Your Client Performance Summary for ${input.periodLabel}`;
  const greeting = input.recipientName?.trim() ? `Hi ${input.recipientName.trim()},` : 'Hello,';
  const intro =
    `Here is the Client Performance Summary of ${whose} ${clientsLabel(input.clients)} for ` +
    `${input.periodLabel}: each client's revenue, collections, receivables and DSO, in its own currency.`;
  const sheetNote =
    input.attachment.extension === 'xlsx'
      ? 'From 30 clients on, the summary comes as a sheet, one row per client.'
      : null;
  const adminNote = input.aboutAdvisor
    ? `You receive it as the platform admin who asked for the advisors' reports; ${input.aboutAdvisor} was not sent a copy.`
    : null;
  const attachedNote = 'The summary is attached:';

  const paragraphs = [
    escapeHtml(greeting),
    escapeHtml(intro),
    ...(sheetNote ? [escapeHtml(sheetNote)] : []),
    escapeHtml(attachedNote),
    attachmentList([input.attachment]),
    ...(adminNote ? [`<span style="font-size:13px;color:#6b7280">${escapeHtml(adminNote)}</span>`] : []),
  ];
  const text = [
    greeting,
    intro,
    ...(sheetNote ? [sheetNote] : []),
    `${attachedNote}\n- ${input.attachment.displayName} (${input.attachment.fileName}, ${sizeLabel(input.attachment.bytes.byteLength)})`,
    `Your clients: ${input.clientsUrl}`,
    ...(adminNote ? [adminNote] : []),
  ].join('\n\n');

  return {
    subject,
    mjml: layout({
      preview: `Client Performance Summary of ${whose} ${clientsLabel(input.clients)} for ${input.periodLabel}`,
      heading: `Client Performance Summary: ${input.periodLabel}`,
      paragraphs,
      action: { label: 'Open your clients', url: input.clientsUrl },
      footnote: 'Sent by Ledgerwise to the advisors of its firms.',
    }),
    text,
  };
};

/**
 * The whole message: HTML, text, the attached summary and the Message-ID `<jobId.advisorId@ledgerwise>`
 * of the advisor's own report job, the same on every attempt (one email per advisor and job).
 */
export const clientPerformanceEmailMessage = async (
  input: ClientPerformanceEmailInput & { jobId: number; advisorUserId: number },
): Promise<OutgoingEmail> => ({
  ...(await renderEmail(input.to, clientPerformanceEmail(input))),
  attachments: attachmentsOf([input.attachment]),
  messageId: reportMessageId(input.jobId, input.advisorUserId),
});
