/**
 * The mail thread of createMailerWith (smtp-mailer.ts, docs/adr/0058): builds and sends each message
 * it is given with a nodemailer transport of its own, off the caller's main thread, and answers with
 * the Message-ID once the transport accepted it (or with the transport's error).
 */
import { workerData } from 'node:worker_threads';
import { serveThreadCalls } from '../threads/thread-calls';
import { createMailerWith, type MailTransport, type OutgoingEmail } from './smtp-mailer';

const { transport, from } = workerData as { transport: MailTransport; from: string };
const mailer = createMailerWith({ transport, from, thread: false });

serveThreadCalls<OutgoingEmail, { messageId: string }>((email) => mailer.send(email));
