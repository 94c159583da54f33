import nodemailer from 'nodemailer';
import type { Config } from '../../contracts/config';

export type OutgoingEmail = {
  to: string | string[];
  subject: string;
  html: string;
  text?: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
};

export type Mailer = {
  send: (email: OutgoingEmail) => Promise<{ messageId: string }>;
  close: () => void;
};

/** Sends email over SMTP (MailDev locally, the provider's relay in production). */
export const createMailer = (config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>): Mailer => {
  const transport = nodemailer.createTransport(config.SMTP_URL);
  return {
    send: async (email) => {
      const info = await transport.sendMail({ from: config.MAIL_FROM, ...email });
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
};
