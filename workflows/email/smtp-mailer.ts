import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../contracts/config';
import { inThreadOrHere, sharedThreadCalls } from '../threads/thread-calls';

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
  /** Starts the mail thread ahead of the first message (a reports worker at its start). */
  warm?: () => void;
  close: () => void;
};

/**
 * Where messages go: an SMTP URL (MailDev locally, the provider's relay in production), or nodemailer's
 * stream transport, which builds each message in full and keeps it (the bench's tick: MailDev is shared
 * with the test suites).
 */
export type MailTransport = string | { streamTransport: true; buffer: true };

/**
 * A message the mail thread has not answered in this time (past nodemailer's own SMTP timeouts: two
 * minutes to connect, ten of socket silence) is taken as stuck: the thread ends and the message is
 * sent from the caller's thread.
 */
const MAIL_THREAD_TIMEOUT_MS = 11 * 60_000;

/**
 * The email's files, each in a buffer of its own handed to the thread (not cloned again; a view into a
 * larger buffer would otherwise send all of it). The caller keeps its own bytes.
 */
const handedOver = (email: OutgoingEmail): { email: OutgoingEmail; transfer: ArrayBuffer[] } => {
  const attachments = email.attachments?.map((attachment) => ({
    ...attachment,
    content: new Uint8Array(attachment.content),
  }));
  return {
    email: attachments ? { ...email, attachments } : email,
    transfer: (attachments ?? []).map((attachment) => attachment.content.buffer),
  };
};

/**
 * A mailer on any transport. By default each message is built (MIME, base64 of the files) and sent in
 * a worker thread of its own (docs/adr/0058): in a schedule tick nodemailer took about a tenth of the
 * reports worker's main thread. `send` answers once the transport accepted the message, as before; a
 * thread that fails or is stuck hands the message back to the caller's thread (sent there), and the
 * next message starts a new thread. `thread: false` sends on the caller's thread (the mail thread's
 * own mailer).
 */
export const createMailerWith = (options: {
  transport: MailTransport;
  from: string;
  thread?: boolean;
}): Mailer => {
  const here = createMailerHere(options.transport, options.from);
  if (options.thread === false) return here;
  // Mailers made alike (the same transport and sender) share one mail thread in a process.
  const thread = sharedThreadCalls<OutgoingEmail, { messageId: string }>({
    file: join(__dirname, 'mail-thread.ts'),
    workerData: { transport: options.transport, from: options.from },
    name: 'mail',
    timeoutMs: MAIL_THREAD_TIMEOUT_MS,
  });
  return {
    send: (email) =>
      inThreadOrHere(
        () => {
          const { email: posted, transfer } = handedOver(email);
          return thread.call(posted, transfer);
        },
        () => here.send(email),
      ),
    warm: () => thread.warm(),
    close: () => here.close(),
  };
};

/** Sends email over SMTP (MailDev locally, the provider's relay in production), from a mail thread. */
export const createMailer = (config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>): Mailer =>
  createMailerWith({ transport: config.SMTP_URL, from: config.MAIL_FROM });

const createMailerHere = (transportOptions: MailTransport, from: string): Mailer => {
  const transport: Transporter<{ messageId: string }> =
    typeof transportOptions === 'string'
      ? nodemailer.createTransport(transportOptions)
      : nodemailer.createTransport(transportOptions);
  return {
    send: async ({ attachments, messageId, unsubscribeUrl, ...email }) => {
      const info = await transport.sendMail({
        from,
        ...email,
        // The text and HTML parts in base64 (Buffer's own encoder) instead of nodemailer's choice of
        // quoted-printable, encoded a character at a time in JavaScript: a report email's MIME took
        // about half the time (371 against 690 µs), for about 13% more bytes. Every client decodes both.
        textEncoding: 'base64',
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
