import { contentTypeOf } from '../../../contracts/api/reports';
import type { RenderedReport } from '../rendered-report';
import { reportEmail, reportEmailHtmlUncached, reportEmailMessage, reportMessageId } from './report-email';

const pdf: RenderedReport = {
  type: 'WEEKLY_REPORT',
  extension: 'pdf',
  fileName: 'Acme Ltd - Weekly Report - 2025-11-24.pdf',
  displayName: 'Weekly Report 2025-11-24',
  contentType: contentTypeOf.pdf,
  bytes: new Uint8Array(2048).fill(1),
};
const sheet: RenderedReport = {
  type: 'CUSTOMER_SHEET',
  extension: 'xlsx',
  fileName: 'Acme Ltd - Customer Sheet - 2025-11-24.xlsx',
  displayName: 'Customer Sheet 2025-11-24',
  contentType: contentTypeOf.xlsx,
  bytes: new Uint8Array(3 * 1024 * 1024),
};

const input = {
  to: 'cfo@acme.test',
  recipientName: 'Ada',
  tenantName: 'Acme & Sons',
  sellerName: 'Acme <Ltd>',
  frequency: 'weekly' as const,
  periodLabel: 'Week of 17 Nov 2025',
  highlights: [
    { label: 'Revenue', value: '$12,345.67', note: '+8.2% vs previous week' },
    { label: 'Collected', value: '$9,876.54' },
    { label: 'Overdue', value: '$4,321.00' },
    { label: 'DSO', value: '41 days' },
    { label: 'Fifth', value: 'cut' },
  ],
  attachments: [pdf, sheet],
  reportsUrl: 'http://127.0.0.1:3000/reports',
  unsubscribeUrl: 'http://127.0.0.1:3000/unsubscribe?token=12.w.sig&x=1',
};

describe('the report email', () => {
  it('sums up the period, lists the attachments and links to stop the weekly report', async () => {
    const email = await reportEmailMessage({ ...input, jobId: 31, recipientId: 12 });
    expect(email.subject).toBe('Acme <Ltd>: your weekly report for Week of 17 Nov 2025');
    expect(email.html).toContain('$12,345.67');
    expect(email.html).toContain('+8.2% vs previous week');
    expect(email.html).not.toContain('cut');
    expect(email.html).toContain('Acme &lt;Ltd&gt;');
    expect(email.html).not.toContain('<Ltd>');
    expect(email.html).toContain('Weekly Report 2025-11-24');
    expect(email.html).toContain('(PDF, 2 KB)');
    expect(email.html).toContain('(Excel workbook, 3.0 MB)');
    expect(email.html).toContain('href="http://127.0.0.1:3000/unsubscribe?token=12.w.sig&amp;x=1"');
    expect(email.html).toContain('Stop receiving the weekly report');
    // The header's address is the one-click API one of the same token (RFC 8058).
    expect(email.unsubscribeUrl).toBe(
      'http://127.0.0.1:3000/api/subscriptions/unsubscribe/one-click?token=12.w.sig',
    );
    expect(email.messageId).toBe('<31.12@ledgerwise>');
    expect(email.attachments?.map((a) => [a.filename, a.contentType, a.content.byteLength])).toEqual([
      [pdf.fileName, 'application/pdf', 2048],
      [sheet.fileName, contentTypeOf.xlsx, 3 * 1024 * 1024],
    ]);
  });

  it('has a plain-text part with the figures, the files and the unsubscribe link', () => {
    const { text } = reportEmail(input);
    expect(text).toContain('Hi Ada,');
    expect(text).toContain('Revenue: $12,345.67 (+8.2% vs previous week)');
    expect(text).toContain(`- Weekly Report 2025-11-24 (${pdf.fileName}, 2 KB)`);
    expect(text).toContain(`Stop receiving the weekly report: ${input.unsubscribeUrl}`);
    expect(text).toContain('http://127.0.0.1:3000/reports');
  });

  it('offers the monthly stop link on monthly reports, and none on a welcome report', () => {
    expect(reportEmail({ ...input, frequency: 'monthly' }).text).toContain(
      'Stop receiving the monthly report',
    );
    const welcome = reportEmail({ ...input, frequency: 'welcome', unsubscribeUrl: null });
    expect(welcome.text).not.toContain('Stop receiving');
    expect(welcome.mjml).not.toContain('unsubscribe');
  });

  it('shows the tenant logo 30 px high when there is one', async () => {
    const email = await reportEmailMessage({
      ...input,
      logoUrl: 'http://127.0.0.1:3000/api/tenants/3/logo',
      jobId: 1,
      recipientId: 2,
    });
    expect(email.html).toMatch(
      /<img src="http:\/\/127\.0\.0\.1:3000\/api\/tenants\/3\/logo"[^>]*height="30"/,
    );
  });

  it('gives every attempt of one job and recipient the same Message-ID', () => {
    expect(reportMessageId(5, 9)).toBe(reportMessageId(5, 9));
    expect(reportMessageId(5, 9)).not.toBe(reportMessageId(5, 10));
  });

  it('fills a compiled shape in with the same HTML MJML gives each email', async () => {
    const others = [
      input,
      // The same shape again with other texts, some that HTML must escape: the compiled shape is reused.
      {
        ...input,
        recipientName: '  Zoë "Z" O\'Neil ',
        tenantName: 'Tom & Jerry <Pty>',
        sellerName: 'A&B lwslot9z',
        periodLabel: 'Week of 1 Dec 2025',
        highlights: input.highlights.map((h, index) => ({ ...h, value: `<${index}> & "${h.value}"` })),
        attachments: [{ ...pdf, displayName: 'Weekly <Report>', bytes: new Uint8Array(700 * 1024) }, sheet],
        unsubscribeUrl: 'http://127.0.0.1:3000/unsubscribe?token=13.w.sig&y=2',
      },
      { ...input, recipientName: null, highlights: [], attachments: [], unsubscribeUrl: null },
      { ...input, frequency: 'monthly' as const, logoUrl: 'http://127.0.0.1:3000/api/tenants/3/logo?v=2&x' },
      { ...input, frequency: 'welcome' as const, highlights: input.highlights.slice(0, 2) },
    ];
    for (const [index, email] of others.entries()) {
      const message = await reportEmailMessage({ ...email, jobId: 40 + index, recipientId: 1 });
      expect(message.html).toBe(await reportEmailHtmlUncached(email));
      expect(message.text).toBe(reportEmail(email).text);
      expect(message.subject).toBe(reportEmail(email).subject);
    }
  });
});
