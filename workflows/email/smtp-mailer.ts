import nodemailer from 'nodemailer';
import type { Config } from '../../contracts/config';

/** A file sent with an email: its name as the reader sees it, its bytes and its MIME type. */
export type EmailAttachment = { filename: string; content: Buffer | Uint8Array; contentType: string };

export type OutgoingEmail = {
  to: string | string[];
  subject: string;
  html: string;
  text?: string;
  attachments?: EmailAttachment[];
  /**
   * The Message-ID header, angle brackets included (`<job-12.recipient-7@ledgerwise>`). A caller that
   * may send the same message again (a retried activity) gives a deterministic one, so the copy can be
   * recognised; without it the transport makes a random one.
   */
  messageId?: string;
  /**
   * Where the recipient stops this kind of email in one click (RFC 8058): an address answering a POST
   * of `List-Unsubscribe=One-Click`, sent as List-Unsubscribe with List-Unsubscribe-Post.
   */
  unsubscribeUrl?: string;
};

export type Mailer = {
  send: (email: OutgoingEmail) => Promise<{ messageId: string }>;
  close: () => void;
};

/** Sends email over SMTP (MailDev locally, the provider's relay in production). */
export const createMailer = (config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>): Mailer => {
  const transport = nodemailer.createTransport(config.SMTP_URL);
  return {
    send: async ({ attachments, messageId, unsubscribeUrl, ...email }) => {
      const info = await transport.sendMail({
        from: config.MAIL_FROM,
        ...email,
        ...(attachments
          ? {
              attachments: attachments.map((attachment) => ({
                filename: attachment.filename,
                content: Buffer.from(
                  attachment.content.buffer,
                  attachment.content.byteOffset,
                  attachment.content.byteLength,
                ),
                contentType: attachment.contentType,
              })),
            }
          : {}),
        ...(messageId ? { messageId } : {}),
        ...(unsubscribeUrl
          ? {
              list: { unsubscribe: unsubscribeUrl },
              headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
            }
          : {}),
      });
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
};
