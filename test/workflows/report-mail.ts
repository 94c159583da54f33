import type { Config } from '../../contracts/config';

/**
 * MailDev as the report tests read it: every email to an address, with its attachments' bytes
 * (GET /email lists them, GET /email/:id/attachment/:name serves each one).
 */
type MailDevAttachment = { fileName: string; generatedFileName: string; contentType: string; length: number };
type MailDevEmail = {
  id: string;
  subject: string;
  messageId: string;
  to: { address: string }[];
  text: string;
  html: string;
  attachments?: MailDevAttachment[];
};

export type ReportMail = {
  /** MailDev's own id: unique, where Message-IDs repeat across runs whose job ids start again. */
  id: string;
  subject: string;
  messageId: string;
  text: string;
  html: string;
  attachments: { fileName: string; contentType: string; bytes: Buffer }[];
};

const allEmails = async (config: Pick<Config, 'MAILDEV_URL'>) =>
  (await (await fetch(`${config.MAILDEV_URL}/email`)).json()) as MailDevEmail[];

/**
 * The report emails MailDev holds for `to` (all of them, or one job's), oldest first, attachments
 * downloaded. A report email's Message-ID names its job and recipient (`<jobId.recipientId@ledgerwise>`).
 */
export const mailTo = async (
  config: Pick<Config, 'MAILDEV_URL'>,
  to: string,
  jobId?: number,
): Promise<ReportMail[]> => {
  // MailDev shows the Message-ID without its angle brackets.
  const emails = (await allEmails(config))
    .map((email) => ({ ...email, messageId: `<${(email.messageId ?? '').replace(/^<|>$/g, '')}>` }))
    .filter(
      (email) =>
        email.to.some((t) => t.address.toLowerCase() === to.toLowerCase()) &&
        /^<\d+\.\d+@ledgerwise>$/.test(email.messageId) &&
        (jobId === undefined || email.messageId.startsWith(`<${jobId}.`)),
    );
  return Promise.all(
    emails.map(async (email) => ({
      id: email.id,
      subject: email.subject,
      messageId: email.messageId,
      text: email.text,
      html: email.html,
      attachments: await Promise.all(
        (email.attachments ?? []).map(async (attachment) => ({
          fileName: attachment.fileName,
          contentType: attachment.contentType,
          bytes: Buffer.from(
            await (
              await fetch(
                `${config.MAILDEV_URL}/email/${email.id}/attachment/${encodeURIComponent(attachment.generatedFileName)}`,
              )
            ).arrayBuffer(),
          ),
        })),
      ),
    })),
  );
};

/** Waits until MailDev holds at least `count` report emails for `to` (SMTP delivery is quick, not instant). */
export const waitForMail = async (
  config: Pick<Config, 'MAILDEV_URL'>,
  to: string,
  options: { count?: number; jobId?: number } = {},
): Promise<ReportMail[]> => {
  const count = options.count ?? 1;
  for (let attempt = 0; attempt < 150; attempt += 1) {
    const emails = await mailTo(config, to, options.jobId);
    if (emails.length >= count) return emails;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`MailDev never held ${count} email(s) to ${to}`);
};
