import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import type { Db } from 'mongodb';
import type { LedgerEntity, LedgerPage } from '../../contracts/ledger';
import { openReadStore, type ReadStore } from '../../projections/read-store/open-read-store';
import { ledgerCollections, ledgerEntities } from '../../workflows/ledger/ledger-collections';
import { startLedgerwise, type LedgerwiseProcess } from '../harness/ledgerwise-process';
import { expectedReportFigures } from '../reports/expected-report-figures';
import { flat, readPdf } from '../reports/pdf-text';
import { mailTo, type ReportMail } from '../workflows/report-mail';
import { launchChromium, startJourney, type Journey } from './browser';
import { eventually, openFromSidebar, signIn } from './journey-steps';

/**
 * Issue 14, done means: a weekly report requested in the browser for the Demo Client's DEMO seller
 * arrives in MailDev with its PDF, the PDF's figures are those this test computes from the seller's
 * synced ledger (read from the product's own read store), and the Report Archive downloads the same
 * bytes. Runs `ledgerwise all` like the other journeys; screenshots in test-results/e2e/<journey>/.
 */
jest.setTimeout(900_000);

let app: LedgerwiseProcess;
let browser: Browser;
let readStore: ReadStore;
const journeys: Journey[] = [];

beforeAll(async () => {
  [app, browser] = await Promise.all([startLedgerwise(__filename), launchChromium()]);
  readStore = await openReadStore({ MONGO_URL: app.config.MONGO_URL, DATA_DIR: app.dataDir });
});

afterEach(async () => {
  await Promise.all(journeys.splice(0).map((j) => j.close()));
});

afterAll(async () => {
  await readStore?.close();
  await browser?.close();
  await app?.stop();
});

const demoUser = 'demo@ledgerwise.local';
const demoCompany = 'Demo Client';

/** The Demo Client's DEMO seller once its first sync and metrics are done (the worker runs them at start). */
const syncedDemoSeller = async (page: Page): Promise<number> => {
  let sellerId = 0;
  await eventually(
    () =>
      page.evaluate(async () => {
        const answer = await fetch('/api/sellers?Active=true');
        const list = (await answer.json()) as {
          rows: { Id: number; Provider: string; MetricsDate: string | null }[];
        };
        return list.rows.find((row) => row.Provider === 'DEMO') ?? null;
      }),
    (seller) => {
      expect(seller?.MetricsDate).toEqual(expect.any(String));
      sellerId = seller?.Id ?? 0;
    },
    300_000,
  );
  return sellerId;
};

/** The seller's ledger as the sync stored it. */
const storedLedger = async (db: Db, sellerId: number): Promise<LedgerPage> => {
  const page = {} as Record<LedgerEntity, unknown[]>;
  for (const entity of ledgerEntities)
    page[entity] = await db.collection(ledgerCollections[entity]).find({ sellerId }).toArray();
  return page as unknown as LedgerPage;
};

const usd = (cents: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

describe('report journeys in a real browser', () => {
  it('a weekly report requested on the Reports page is emailed with its PDF, figures from the ledger, and archived', async () => {
    const j = startJourney(browser, { name: 'weekly-report', base: app.base });
    journeys.push(j);
    const page = await j.person();
    await signIn(page, { email: demoUser, password: app.config.SEED_ADMIN_PASSWORD });
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const sellerId = await syncedDemoSeller(page);

    // The user makes themselves a recipient of the company's reports.
    await openFromSidebar(page, 'Reports');
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Add recipient' }).click();
    const add = page.getByRole('dialog', { name: 'Add recipient' });
    await add.getByLabel('Email').fill(demoUser);
    await add.getByLabel('Name').fill('Dana Demo');
    await add.getByRole('button', { name: 'Add recipient' }).click();
    await page.getByText('Recipient Added Successfully').waitFor();
    await page.getByRole('table', { name: 'Report recipients' }).getByText('Dana Demo').waitFor();

    // Request the weekly report; the requester is ticked already.
    await page.getByLabel('Report', { exact: true }).selectOption('weekly');
    await page.getByRole('button', { name: 'Request Report' }).click();
    const modal = page.getByRole('dialog', { name: 'Request weekly report' });
    await expect(modal.getByRole('checkbox', { name: /Dana Demo/ }).isChecked()).resolves.toBe(true);
    await j.shoot(page, 'request-report-modal');
    // MailDev is shared by every run, and job ids start again in each run's event store: only an email
    // that was not there before this request is this request's.
    const before = new Set((await mailTo(app.config, demoUser)).map((mail) => mail.id));
    const requested = page.waitForResponse(
      (response) =>
        response.url().endsWith(`/api/sellers/${sellerId}/reports/weekly`) &&
        response.request().method() === 'POST',
    );
    await modal.getByRole('button', { name: 'Send report' }).click();
    const answer = (await (await requested).json()) as { jobs: { Id: number }[] };
    const jobId = answer.jobs[0]?.Id ?? 0;
    expect(jobId).toBeGreaterThan(0);
    // The dialog's root has no box of its own (its panel is fixed): wait for what it says.
    await page
      .getByRole('dialog', { name: 'Report Request Received' })
      .getByText('Please check your email in a few minutes.')
      .waitFor();
    await j.shoot(page, 'report-request-received');
    await page.getByRole('button', { name: 'OK' }).click();

    // The email: one, to the requester, the weekly PDF attached.
    let email: ReportMail | undefined;
    await eventually(
      async () => (await mailTo(app.config, demoUser, jobId)).filter((mail) => !before.has(mail.id)),
      (fresh) => {
        expect(fresh).toHaveLength(1);
        email = fresh[0];
      },
      120_000,
    );
    expect(email?.subject).toMatch(/^Demo Client: your weekly report for /);
    const pdf = email?.attachments.find((attachment) => attachment.contentType === 'application/pdf');
    expect(pdf?.fileName).toMatch(/^Demo Client - Weekly Report - \d{4}-\d{2}-\d{2}\.pdf$/);
    const { text, pages } = await readPdf(pdf?.bytes ?? new Uint8Array());
    expect(pages).toBeGreaterThanOrEqual(1);
    expect(flat(text)).toContain(`Weekly Report ${demoCompany}`);

    // Its figures, recomputed here from the ledger the sync stored.
    const day = /(\d{4}-\d{2}-\d{2})\.pdf$/.exec(pdf?.fileName ?? '')?.[1] ?? '';
    const ledger = await storedLedger(readStore.db, sellerId);
    expect(ledger.invoices.length).toBeGreaterThan(100);
    const expected = expectedReportFigures(
      ledger,
      { customerIds: [], productIds: [] },
      'weekly',
      new Date(`${day}T12:00:00.000Z`),
    );
    for (const figure of [...Object.values(expected.revenue), ...Object.values(expected.collections)])
      expect(text).toContain(usd(figure));
    expect(text).toContain(usd(expected.aging.open));
    expect(text).toContain(usd(expected.aging.overdue));
    for (const invoice of expected.chase.slice(0, 3)) expect(flat(text)).toContain(invoice.docNumber);

    // The archive lists it once the job is done, and downloads the very bytes that were emailed.
    const archive = page.getByRole('table', { name: 'Report archive' });
    const row = archive.getByRole('row').filter({ hasText: `Weekly Report ${day}` });
    await row.waitFor({ timeout: 60_000 });
    await j.shoot(page, 'report-archive');
    const download = page.waitForEvent('download');
    await row.getByRole('button', { name: /^Download/ }).click();
    const saved = await (await download).path();
    expect(Buffer.compare(await readFile(saved), Buffer.from(pdf?.bytes ?? []))).toBe(0);

    // The recipient's last-sent date moved, so the dashboard's Report received step is done.
    await page
      .getByRole('table', { name: 'Report recipients' })
      .getByRole('row')
      .filter({ hasText: 'Dana Demo' })
      .getByText('Never')
      .waitFor({ state: 'detached' });
  });
});
