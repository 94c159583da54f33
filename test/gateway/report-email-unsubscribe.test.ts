import { createHash } from 'node:crypto';
import PDFDocument from 'pdfkit';
import { RecipientsResponse } from '../../contracts/api/recipients';
import { contentTypeOf } from '../../contracts/api/reports';
import { UnsubscribeResponse } from '../../contracts/api/report-unsubscribe';
import { SellerResponse } from '../../contracts/api/sellers';
import { ErrorResponse } from '../../contracts/errors';
import { createMailer } from '../../workflows/email/smtp-mailer';
import { reportEmailMessage } from '../../workflows/reports/email/report-email';
import { signUnsubscribeToken, unsubscribeLink } from '../../workflows/reports/email/unsubscribe-token';
import type { RenderedReport } from '../../workflows/reports/rendered-report';
import { renderSheets } from '../../workflows/reports/sheets/render-sheets';
import { companyFor, signUp } from './fixtures';
import { useGatewayWorld } from './gateway-world';
import { pathOf, waitForEmail } from './maildev';

/**
 * A report email end to end: rendered with real sheets, sent over SMTP to MailDev, read back there
 * (attachments byte for byte, the text part, Message-ID, List-Unsubscribe), and its stop link
 * followed through the gateway as the web page /unsubscribe does: the recipient's weekly sending
 * turns off, the monthly one stays, and a tampered link changes nothing.
 */
const world = useGatewayWorld(__filename);

type MailDevAttachment = { fileName: string; generatedFileName: string; contentType: string; length: number };
type MailDevEmail = {
  id: string;
  subject: string;
  messageId: string;
  headers: Record<string, string>;
  attachments: MailDevAttachment[] | null;
};

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A small real PDF (pdfkit, the engine beneath @react-pdf): the email does not care who drew it. */
const pdfReport = async (): Promise<RenderedReport> => {
  const doc = new PDFDocument({ size: 'A4' });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => doc.on('end', resolve));
  doc.fontSize(18).text('Weekly Report').fontSize(11).text('Revenue: £1,234.56');
  doc.end();
  await done;
  return {
    type: 'WEEKLY_REPORT',
    extension: 'pdf',
    fileName: 'Unsub Books - Weekly Report - 2025-11-24.pdf',
    displayName: 'Weekly Report 2025-11-24',
    contentType: contentTypeOf.pdf,
    bytes: new Uint8Array(Buffer.concat(chunks)),
  };
};

const mailDevEmail = async (messageId: string): Promise<MailDevEmail> => {
  const emails = (await (await fetch(`${world.config.MAILDEV_URL}/email`)).json()) as MailDevEmail[];
  const found = emails.find((e) => `<${e.messageId}>` === messageId);
  if (!found) throw new Error(`MailDev has no message ${messageId}`);
  return found;
};

const attachmentBytes = async (email: MailDevEmail, attachment: MailDevAttachment) =>
  new Uint8Array(
    await (
      await fetch(
        `${world.config.MAILDEV_URL}/email/${email.id}/attachment/${encodeURIComponent(attachment.generatedFileName)}`,
      )
    ).arrayBuffer(),
  );

describe('a report email and its stop link', () => {
  it('arrives with its files, text and link; the link stops the weekly report only', async () => {
    const owner = await signUp(world, { name: 'unsub-owner', givenName: 'Ada' });
    const tenantId = await companyFor(world, owner, { name: `Unsub Co ${world.runId}` });
    const seller = SellerResponse.parse(
      (await owner.browser.post('/api/sellers', { provider: 'DEMO' })).json(),
    );
    const subscribed = await owner.browser.post('/api/subscriptions', {
      userId: owner.session.user.Id,
      sellerId: seller.Id,
      SendWeekly: true,
      SendMonthly: true,
    });
    expect(subscribed.statusCode).toBe(200);
    const recipientId = subscribed.json<{ Id: number }>().Id;
    await world.settle();

    const sheets = await renderSheets(world.services.db, {
      sellerId: seller.Id,
      asOf: new Date('2025-11-24T12:00:00.000Z'),
      include: { customerSheet: true, prioritizedInvoices: true },
    });
    const reports = [await pdfReport(), ...sheets];
    expect(reports.map((r) => r.extension)).toEqual(['pdf', 'xlsx', 'xlsx']);
    const token = signUnsubscribeToken(world.config.SESSION_SECRET, { recipientId, frequency: 'weekly' });
    const jobId = 7000 + Math.floor(Math.random() * 1000);
    const mailer = createMailer(world.config);
    const message = await reportEmailMessage({
      to: owner.email,
      recipientName: 'Ada',
      tenantName: `Unsub Co ${world.runId}`,
      sellerName: 'Unsub Books',
      frequency: 'weekly',
      periodLabel: `Week of 17 Nov 2025 ${world.runId}`,
      highlights: [
        { label: 'Revenue', value: '£1,234.56' },
        { label: 'Overdue', value: '£400.00' },
        { label: 'DSO', value: '41 days' },
      ],
      attachments: reports,
      reportsUrl: `${world.config.PUBLIC_URL}/reports`,
      unsubscribeUrl: unsubscribeLink(world.config.PUBLIC_URL, token),
      jobId,
      recipientId,
    });
    const sent = await mailer.send(message);
    mailer.close();
    expect(sent.messageId).toBe(`<${jobId}.${recipientId}@ledgerwise>`);

    const received = await waitForEmail(world.config, { to: owner.email, subject: new RegExp(world.runId) });
    expect(received.subject).toBe(`Unsub Books: your weekly report for Week of 17 Nov 2025 ${world.runId}`);
    expect(received.text).toContain('Revenue: £1,234.56');
    expect(received.text).toContain(reports[1]!.fileName);
    const stopLink = received.links.find((link) => link.includes('/unsubscribe?'));
    expect(stopLink).toBe(unsubscribeLink(world.config.PUBLIC_URL, token));
    expect(received.text).toContain(`Stop receiving the weekly report: ${stopLink}`);

    const email = await mailDevEmail(sent.messageId);
    // One click (RFC 8058): the header names the API address mail clients POST to, with no cookie and
    // no anti-forgery token; a GET of it changes nothing and goes on to the page of the email's link.
    const oneClick = `${world.config.PUBLIC_URL}/api/subscriptions/unsubscribe/one-click?token=${encodeURIComponent(token)}`;
    expect(email.headers['list-unsubscribe']).toBe(`<${oneClick}>`);
    expect(email.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const attachments = email.attachments ?? [];
    expect(attachments.map((a) => [a.fileName, a.contentType])).toEqual(
      reports.map((r) => [r.fileName, r.contentType]),
    );
    for (const [i, attachment] of attachments.entries())
      expect(sha(await attachmentBytes(email, attachment))).toBe(sha(reports[i]!.bytes));

    // The web page at the link posts its token, with the anti-forgery header, as anyone (no session).
    const visitor = world.browser();
    const linkToken = new URL(stopLink!).searchParams.get('token');
    expect(pathOf(stopLink!)).toMatch(/^\/unsubscribe\?token=/);

    const tampered = `${linkToken!.slice(0, -2)}${linkToken!.endsWith('AA') ? 'BB' : 'AA'}`;
    const refused = await visitor.post('/api/subscriptions/unsubscribe', { token: tampered });
    expect(refused.statusCode).toBe(400);
    expect(ErrorResponse.parse(refused.json()).message).toBe('This link is invalid.');
    const otherRecipient = await visitor.post('/api/subscriptions/unsubscribe', {
      token: linkToken!.replace(/^\d+\./, `${recipientId + 1}.`),
    });
    expect(otherRecipient.statusCode).toBe(400);

    const flags = async () => {
      await world.settle();
      const listed = RecipientsResponse.parse((await owner.browser.get('/api/subscriptions')).json());
      const own = listed.rows.find((row) => row.Id === recipientId);
      return { SendWeekly: own?.SendWeekly, SendMonthly: own?.SendMonthly };
    };
    expect(await flags()).toEqual({ SendWeekly: true, SendMonthly: true });

    const stopped = await visitor.post('/api/subscriptions/unsubscribe', { token: linkToken });
    expect(stopped.statusCode).toBe(200);
    expect(UnsubscribeResponse.parse(stopped.json())).toEqual({
      frequency: 'weekly',
      companyName: seller.CompanyName,
      message: `You will no longer receive the weekly report${seller.CompanyName ? ` of ${seller.CompanyName}` : ''}.`,
    });
    expect(await flags()).toEqual({ SendWeekly: false, SendMonthly: true });
    // Following the link again is harmless.
    expect((await visitor.post('/api/subscriptions/unsubscribe', { token: linkToken })).statusCode).toBe(200);
    expect(await flags()).toEqual({ SendWeekly: false, SendMonthly: true });

    // As a mail client sends them: no cookie, no anti-forgery token.
    const pathOfOneClick = pathOf(oneClick);
    const scanned = await world.app.inject({ method: 'GET', url: pathOfOneClick });
    expect(scanned.statusCode).toBe(303);
    expect(scanned.headers.location).toBe(stopLink);
    const mailClient = (payload: string, url = pathOfOneClick) =>
      world.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
    expect((await mailClient('List-Unsubscribe=Something-Else')).statusCode).toBe(422);
    const forged = pathOfOneClick.replace(/token=\d+/, `token=${recipientId + 1}`);
    expect((await mailClient('List-Unsubscribe=One-Click', forged)).statusCode).toBe(400);
    const clicked = await mailClient('List-Unsubscribe=One-Click');
    expect(clicked.statusCode).toBe(200);
    expect(UnsubscribeResponse.parse(clicked.json()).frequency).toBe('weekly');
    expect(tenantId).toBeGreaterThan(0);
  });

  it("stops a contact's monthly report, though the contact has no account", async () => {
    const owner = await signUp(world, { name: 'unsub-owner2' });
    await companyFor(world, owner, { name: `Unsub Contacts ${world.runId}` });
    const seller = SellerResponse.parse(
      (await owner.browser.post('/api/sellers', { provider: 'DEMO' })).json(),
    );
    const added = await owner.browser.post('/api/subscriptions', {
      email: world.email('contact'),
      name: 'Casey Contact',
      sellerId: seller.Id,
      SendWeekly: true,
      SendMonthly: true,
    });
    const recipientId = added.json<{ Id: number }>().Id;
    const token = signUnsubscribeToken(world.config.SESSION_SECRET, { recipientId, frequency: 'monthly' });
    const stopped = await world.browser().post('/api/subscriptions/unsubscribe', { token });
    expect(stopped.statusCode).toBe(200);
    await world.settle();
    const listed = RecipientsResponse.parse((await owner.browser.get('/api/subscriptions')).json());
    expect(listed.rows.find((row) => row.Id === recipientId)).toMatchObject({
      SendWeekly: true,
      SendMonthly: false,
    });
  });

  it('refuses a write without the anti-forgery header, like every write', async () => {
    const token = signUnsubscribeToken(world.config.SESSION_SECRET, { recipientId: 1, frequency: 'weekly' });
    const response = await world.browser().request({
      method: 'POST',
      url: '/api/subscriptions/unsubscribe',
      body: { token },
      withoutCsrf: true,
    });
    expect(response.statusCode).toBe(403);
  });
});
