import ExcelJS from 'exceljs';
import type { Db } from 'mongodb';
import { contentTypeOf } from '../../contracts/api/reports';
import {
  emptyLedgerPage,
  type LedgerEntity,
  type LedgerInvoice,
  type LedgerPage,
  type LedgerPayment,
} from '../../contracts/ledger';
import { sellerStream } from '../../contracts/stream-ids';
import type { SellerCommand } from '../../domain/seller/decide';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { sellersProjection } from '../../projections/sellers/sellers-projection';
import { tenantsProjection } from '../../projections/tenants/tenants-projection';
import { fetchDemoPage } from '../../workflows/demo/demo-connector';
import { CUSTOMER_FORECASTS, SELLER_FORECASTS } from '../../workflows/forecast/forecast-store';
import {
  ensureLedgerIndexes,
  ledgerCollections,
  ledgerDocId,
} from '../../workflows/ledger/ledger-collections';
import { CUSTOMER_RECEIVABLES, storeMetrics } from '../../workflows/metrics/metric-store';
import { scanSellerMetrics } from '../../workflows/metrics/scan-seller-metrics';
import type { RenderedReport } from '../../workflows/reports/rendered-report';
import { renderSheets } from '../../workflows/reports/sheets/render-sheets';
import { platformAdmin, useReadModelKit } from '../projections/read-model-kit';

/**
 * The XLSX reports read back with exceljs. Two sellers: a small hand-made ledger whose every figure
 * is worked out below by hand (flags, exclusions, the as-of rule, the review sheet's habits, the
 * forecast), and a generated DEMO ledger of a few hundred invoices whose customer and prioritized
 * invoice cells are compared with figures this file computes naively from the ledger rows it seeded.
 */
const kit = useReadModelKit(__filename, sellersProjection, [tenantsProjection]);
const db = (): Db => kit.context.db;

const DAY = 86_400_000;
const d = (iso: string) => new Date(`${iso}T00:00:00.000Z`);
/** The sheets' day: a Monday; the ledger below was collected later, on 2025-12-05. */
const asOf = new Date('2025-11-24T18:00:00.000Z');
const asOfDay = d('2025-11-24');

const TENANT = 1;
const SELLER = 21;
const DEMO_SELLER = 22;

const seller = (id: number, type: SellerCommand['type'], data: object) =>
  kit.run(sellerDecider, sellerStream(id), { type, data, now: d('2025-01-02') } as SellerCommand);

const connect = (id: number, companyName: string) =>
  seller(id, 'ConnectSeller', {
    sellerId: id,
    tenantId: TENANT,
    provider: 'QBO',
    companyName,
    url: null,
    authMethod: 'oauth2',
    authTokenOwner: null,
    credentialsRef: `secrets/seller-${id}`,
    companyFilePath: null,
    actor: platformAdmin,
    tenantIsDemo: false,
    tenantHasConnectedSeller: false,
    planAllowsProvider: true,
  });

const setFlag = async (id: number, flag: string, value: unknown) => {
  await seller(id, 'SetSellerFeatureFlag', { flag, value });
  await kit.catchUp();
};

const writeLedger = async (sellerId: number, page: LedgerPage) => {
  for (const entity of Object.keys(ledgerCollections) as LedgerEntity[]) {
    const records = page[entity];
    if (records.length === 0) continue;
    await db()
      .collection(ledgerCollections[entity])
      .insertMany(
        records.map((record) => ({
          ...record,
          _id: ledgerDocId(sellerId, record.providerId),
          tenantId: TENANT,
          epoch: 1,
          hash: 'h',
          changedAt: d('2025-12-05'),
        })) as never[],
      );
  }
};

/** The metrics run as the pipeline makes it after the collection, with the exclusions then in force. */
const runMetrics = async (sellerId: number, exclusions: { customerIds: number[]; productIds: number[] }) => {
  const metrics = await scanSellerMetrics(db(), { sellerId, exclusions, asOf, retention: 'AUTO' });
  await storeMetrics(db(), { sellerId, tenantId: TENANT, asOf, generation: `run-${sellerId}` }, metrics);
};

type Cell = ExcelJS.CellValue;
type Sheet = { worksheet: ExcelJS.Worksheet; headers: string[]; rows: Record<string, Cell>[] };

const openWorkbook = async (report: RenderedReport) => {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(report.bytes) as unknown as ArrayBuffer);
  return workbook;
};

const sheetOf = (workbook: ExcelJS.Workbook, name: string): Sheet => {
  const worksheet = workbook.getWorksheet(name);
  if (!worksheet) throw new Error(`no worksheet ${name}`);
  const headers = (worksheet.getRow(1).values as Cell[]).slice(1).map(String);
  const rows: Record<string, Cell>[] = [];
  for (let r = 2; r <= worksheet.rowCount; r += 1) {
    const row = worksheet.getRow(r);
    rows.push(Object.fromEntries(headers.map((h, i) => [h, row.getCell(i + 1).value ?? null])));
  }
  return { worksheet, headers, rows };
};

/** Money as the sheet shows it: currency units from cents. */
const money = (cents: number) => cents / 100;

const expectDressed = (sheet: Sheet, format: string, moneyHeader: string) => {
  const view = sheet.worksheet.views[0];
  expect(view).toMatchObject({ state: 'frozen', ySplit: 1 });
  const last = sheet.worksheet.getRow(1).cellCount;
  expect(sheet.worksheet.autoFilter).toBe(`A1:${sheet.worksheet.getColumn(last).letter}1`);
  const column = sheet.headers.indexOf(moneyHeader) + 1;
  expect(column).toBeGreaterThan(0);
  if (sheet.rows.length > 0) expect(sheet.worksheet.getRow(2).getCell(column).numFmt).toBe(format);
  expect(sheet.worksheet.getColumn(column).width).toBeGreaterThan(8);
};

// ---------------------------------------------------------------------------------------------
// The hand-made ledger (amounts in cents; the comments give each figure as of 2025-11-24).

const invoice = (
  providerId: string,
  customerId: number,
  dates: { on: string; due: string },
  lines: { productId: number; quantity?: number; amount: number }[],
  balance: number,
): LedgerInvoice => ({
  sellerId: SELLER,
  providerId,
  customerId,
  docNumber: providerId.replace('I', 'INV-'),
  transactionDate: d(dates.on),
  dueDate: d(dates.due),
  amount: lines.reduce((sum, line) => sum + line.amount, 0),
  balance,
  lines: lines.map((line) => ({
    productId: line.productId,
    quantity: line.quantity ?? 1,
    amount: line.amount,
  })),
});

const settlement = (
  providerId: string,
  customerId: number,
  on: string,
  amount: number,
  applications: [string, number][],
): LedgerPayment => ({
  sellerId: SELLER,
  providerId,
  customerId,
  date: d(on),
  amount,
  applications: applications.map(([invoiceProviderId, applied]) => ({ invoiceProviderId, amount: applied })),
});

const handMade = (): LedgerPage => {
  const page = emptyLedgerPage();
  const customer = (customerId: number, name: string) => ({
    sellerId: SELLER,
    providerId: `C${customerId}`,
    customerId,
    name,
    email: null,
    createdAt: d('2024-01-01'),
    habit: null,
  });
  page.customers = [
    customer(1, 'Northwind'),
    customer(2, 'Contoso'),
    customer(3, 'Excluded Co'),
    customer(4, 'Fabrikam'),
    customer(5, 'Globex'),
    customer(6, 'Initech'),
    customer(7, 'Hooli'),
  ];
  page.products = [
    { sellerId: SELLER, providerId: 'P10', productId: 10, name: 'Widget', unitPrice: 1000 },
    { sellerId: SELLER, providerId: 'P11', productId: 11, name: 'Gadget', unitPrice: 1000 },
    { sellerId: SELLER, providerId: 'P12', productId: 12, name: 'Service', unitPrice: 1000 },
  ];
  page.invoices = [
    // Northwind: 1,000.00 due 1 Oct, 600.00 paid 15 Oct, 100.00 on 30 Nov (after the sheets' day):
    // 400.00 open and 54 days overdue on 24 Nov. Plus 500.00 (5 Gadgets) not due until 20 Dec.
    invoice('I1', 1, { on: '2025-09-01', due: '2025-10-01' }, [{ productId: 12, amount: 100000 }], 30000),
    invoice(
      'I2',
      1,
      { on: '2025-11-20', due: '2025-12-20' },
      [{ productId: 11, quantity: 5, amount: 50000 }],
      50000,
    ),
    // Contoso: 800.00 unpaid since 2024: over 90 days, no sales in the last 12 months.
    invoice('I3', 2, { on: '2024-06-01', due: '2024-07-01' }, [{ productId: 12, amount: 80000 }], 80000),
    // Excluded Co (exclusions.CustomerIds): in no sheet.
    invoice('I4', 3, { on: '2025-10-01', due: '2025-10-31' }, [{ productId: 11, amount: 70000 }], 70000),
    // Fabrikam: 200.00 of the excluded Widget and 300.00 of Gadget, paid in full on 5 Nov.
    invoice(
      'I5',
      4,
      { on: '2025-11-01', due: '2025-12-01' },
      [
        { productId: 10, amount: 20000 },
        { productId: 11, quantity: 3, amount: 30000 },
      ],
      0,
    ),
    // Globex: only the excluded Widget: the invoice counts nowhere, and Globex is in no sheet.
    invoice('I6', 5, { on: '2025-11-10', due: '2025-11-12' }, [{ productId: 10, amount: 5000 }], 5000),
    // Initech paid on time (0 and 2 days late) before the last 90 days, 20 days late in them, and
    // bought 80.00 in them against 800.00 in the 365 days before.
    invoice('I7', 6, { on: '2025-01-01', due: '2025-01-31' }, [{ productId: 12, amount: 40000 }], 0),
    invoice('I8', 6, { on: '2025-03-01', due: '2025-03-31' }, [{ productId: 12, amount: 40000 }], 0),
    invoice('I9', 6, { on: '2025-09-01', due: '2025-10-01' }, [{ productId: 11, amount: 8000 }], 0),
  ];
  page.payments = [
    settlement('P1', 1, '2025-10-15', 60000, [['I1', 60000]]),
    settlement('P2', 1, '2025-11-30', 10000, [['I1', 10000]]),
    // 250.00 received and not applied to any invoice: Northwind's other credits.
    settlement('P3', 1, '2025-11-10', 25000, []),
    settlement('P4', 4, '2025-11-05', 50000, [['I5', 50000]]),
    settlement('P5', 6, '2025-01-31', 40000, [['I7', 40000]]),
    settlement('P6', 6, '2025-04-02', 40000, [['I8', 40000]]),
    settlement('P7', 6, '2025-10-21', 8000, [['I9', 8000]]),
    // Hooli never bought: a 150.00 deposit is all it has, unapplied.
    settlement('P8', 7, '2025-06-01', 15000, []),
  ];
  // A 50.00 credit note Contoso has not used: its other credits.
  page.creditMemos = [settlement('CM1', 2, '2025-01-10', 5000, [])];
  return page;
};

const exclusions = { customerIds: [3], productIds: [10] };

beforeAll(async () => {
  await kit.tenant(TENANT, 'CreateTenant', {
    tenantId: TENANT,
    name: 'Acme Holdings',
    classification: 'BUSINESS',
  });
  await kit.tenant(TENANT, 'ChangeReportingSettings', { currency: 'GBP' });
  await connect(SELLER, 'Acme Ltd');
  await connect(DEMO_SELLER, 'Demo Books');
  await seller(SELLER, 'SetSellerFeatureFlag', {
    flag: 'exclusions.CustomerIds',
    value: exclusions.customerIds,
  });
  await seller(SELLER, 'SetSellerFeatureFlag', {
    flag: 'exclusions.ProductIds',
    value: exclusions.productIds,
  });
  await kit.catchUp();
  await ensureLedgerIndexes(db());
  await writeLedger(SELLER, handMade());
  await runMetrics(SELLER, exclusions);
}, 60_000);

const render = async (include: Parameters<typeof renderSheets>[1]['include'], sellerId = SELLER) =>
  renderSheets(db(), { sellerId, asOf, include });

describe('the customer sheet', () => {
  it('lists the customers with activity, excluded ones left out, with balances, payments and sales', async () => {
    const [report] = await render({ customerSheet: true });
    expect(report).toMatchObject({
      type: 'CUSTOMER_SHEET',
      extension: 'xlsx',
      contentType: contentTypeOf.xlsx,
      fileName: 'Acme Ltd - Customer Sheet - 2025-11-24.xlsx',
      displayName: 'Customer Sheet 2025-11-24',
    });
    const workbook = await openWorkbook(report!);
    expect(workbook.title).toBe('Acme Ltd - Customer Sheet');
    expect(workbook.subject).toBe('As of 2025-11-24');
    const sheet = sheetOf(workbook, 'Customers');
    expectDressed(sheet, '"£"#,##0.00', 'Open Balance');
    expect(sheet.headers).not.toContain('Segment');
    expect(sheet.headers).not.toContain('Other Credits');
    expect(sheet.rows.map((r) => r.Customer)).toEqual([
      'Contoso',
      'Fabrikam',
      'Hooli',
      'Initech',
      'Northwind',
    ]);
    const northwind = sheet.rows.find((r) => r.Customer === 'Northwind');
    // DSO: open 900.00 x the 359 days from 1 Dec 2024 to 24 Nov 2025 / 1,500.00 of sales in them.
    expect(northwind).toEqual({
      'Customer ID': 1,
      Customer: 'Northwind',
      'Open Balance': 900,
      Current: 500,
      Overdue: 400,
      '1-30 Days': 0,
      '31-60 Days': 400,
      '61-90 Days': 0,
      'Over 90 Days': 0,
      'DSO (days)': Math.round((90000 * 359 * 100) / 150000) / 100,
      'Avg Days Late': 54,
      // The 250.00 received on 10 Nov, unapplied; the 100.00 of 30 Nov comes after the sheet's day.
      'Last Payment': d('2025-11-10'),
      'Last Purchase': d('2025-11-20'),
      'Sales 12 Months': 1500,
      'Sales 36 Months': 1500,
      Risk: 'Medium',
    });
    expect(sheet.rows.find((r) => r.Customer === 'Contoso')).toMatchObject({
      'Open Balance': 800,
      Overdue: 800,
      'Over 90 Days': 800,
      'Sales 12 Months': 0,
      'Sales 36 Months': 800,
      'Last Payment': null,
      Risk: 'High',
    });
    // The Widget lines are left out of Fabrikam's sales; Globex bought only Widgets.
    expect(sheet.rows.find((r) => r.Customer === 'Fabrikam')).toMatchObject({
      'Open Balance': 0,
      'Sales 12 Months': 300,
      'Last Payment': d('2025-11-05'),
    });
    // No invoice: the metrics run keeps it for its payment, so the sheet lists its credit.
    expect(sheet.rows.find((r) => r.Customer === 'Hooli')).toMatchObject({
      'Customer ID': 7,
      'Open Balance': 0,
      'Sales 12 Months': 0,
      'Last Payment': d('2025-06-01'),
      'Last Purchase': null,
      Risk: 'Low',
    });
    expect(sheet.worksheet.getRow(2).getCell(sheet.headers.indexOf('Last Payment') + 1).numFmt).toBe(
      'yyyy-mm-dd',
    );
  });

  it('reads a metrics run stored before it kept the sheet figures from the ledger, to the same cells', async () => {
    const include = { customerSheet: true } as const;
    const cellsOf = async () => sheetOf(await openWorkbook((await render(include))[0]!), 'Customers').rows;
    const fromRun = await cellsOf();
    const receivables = db().collection(CUSTOMER_RECEIVABLES);
    const kept = { salesT12M: '', lastPayment: '', otherCredits: '' };
    await receivables.updateMany({ sellerId: SELLER }, { $unset: kept });
    try {
      expect(await receivables.countDocuments({ sellerId: SELLER, salesT12M: { $exists: true } })).toBe(0);
      expect(await cellsOf()).toEqual(fromRun);
    } finally {
      await runMetrics(SELLER, exclusions);
    }
  });

  it('adds Segment and Other Credits when the seller flags ask for them', async () => {
    await setFlag(SELLER, 'customerSheet.showOtherCredits', true);
    await setFlag(SELLER, 'customerSheet.showSegmentation', true);
    try {
      const [report] = await render({ customerSheet: true });
      const sheet = sheetOf(await openWorkbook(report!), 'Customers');
      expect(sheet.headers.slice(0, 4)).toEqual(['Customer ID', 'Customer', 'Segment', 'Open Balance']);
      expect(sheet.headers).toContain('Other Credits');
      const by = (name: string) => sheet.rows.find((r) => r.Customer === name);
      // Sales over 12 months: Northwind 1,500.00, Initech 880.00, Fabrikam 300.00 (2,680.00 in all).
      // Ranked, the sales before each are 0%, 56% and 89% of the total: A, A, B.
      expect(['Northwind', 'Initech', 'Fabrikam', 'Contoso', 'Hooli'].map((n) => by(n)?.Segment)).toEqual([
        'A',
        'A',
        'B',
        'Inactive',
        'Inactive',
      ]);
      expect(by('Northwind')?.['Other Credits']).toBe(250);
      expect(by('Contoso')?.['Other Credits']).toBe(50);
      expect(by('Initech')?.['Other Credits']).toBe(0);
      expect(by('Hooli')?.['Other Credits']).toBe(150);
    } finally {
      await setFlag(SELLER, 'customerSheet.showOtherCredits', false);
      await setFlag(SELLER, 'customerSheet.showSegmentation', false);
    }
  });

  it('puts the customers whose habits changed on a review worksheet, before and after', async () => {
    const [report] = await render({ customerSheet: true, customerReviewSheet: true });
    const workbook = await openWorkbook(report!);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Customers', 'Customer Review']);
    const review = sheetOf(workbook, 'Customer Review');
    expectDressed(review, '"£"#,##0.00', 'Sales Last 90 Days');
    expect(review.rows).toEqual([
      {
        'Customer ID': 6,
        Customer: 'Initech',
        Change: 'Paying later, Buying less',
        'Avg Days Late Before': 1,
        'Avg Days Late Last 90 Days': 20,
        'Days Late Change': 19,
        'Invoices Paid Before': 2,
        'Invoices Paid Last 90 Days': 1,
        'Sales per 90 Days Before': Math.round((80000 * 90) / 365) / 100,
        'Sales Last 90 Days': 80,
        'Sales Change': 8000 / ((80000 * 90) / 365) - 1,
        'Open Balance': 0,
        Overdue: 0,
      },
    ]);
    const [alone] = await render({ customerReviewSheet: true });
    expect(alone?.type).toBe('CUSTOMER_SHEET');
    expect(alone?.displayName).toBe('Customer Review Sheet 2025-11-24');
    expect((await openWorkbook(alone!)).worksheets.map((w) => w.name)).toEqual(['Customer Review']);
  });
});

describe('the product sheet', () => {
  it('gives revenue by product and month, the year before, and leaves excluded products out', async () => {
    const [report] = await render({ productSheet: true });
    expect(report?.type).toBe('PRODUCT_SHEET');
    const sheet = sheetOf(await openWorkbook(report!), 'Products');
    expectDressed(sheet, '"£"#,##0.00', 'Total 12 Months');
    expect(sheet.headers.slice(0, 4)).toEqual(['Product ID', 'Product', 'Dec 2024', 'Jan 2025']);
    expect(sheet.headers[13]).toBe('Nov 2025');
    const months = (row: Record<string, Cell>) =>
      Object.fromEntries(sheet.headers.slice(2, 14).flatMap((h) => (row[h] ? [[h, row[h]]] : [])));
    expect(sheet.rows.map((r) => r.Product)).toEqual(['Service', 'Gadget']);
    const [service, gadget] = sheet.rows;
    expect(months(service!)).toEqual({ 'Jan 2025': 400, 'Mar 2025': 400, 'Sep 2025': 1000 });
    expect(service).toMatchObject({
      'Total 12 Months': 1800,
      'Previous 12 Months': 800,
      Change: 1800 / 800 - 1,
      'Units 12 Months': 3,
      'Invoices 12 Months': 3,
    });
    // Gadget: Northwind's 5 and Fabrikam's 3 in November, Initech's 1 in September; Excluded Co's not.
    expect(months(gadget!)).toEqual({ 'Sep 2025': 80, 'Nov 2025': 800 });
    expect(gadget).toMatchObject({
      'Total 12 Months': 880,
      'Previous 12 Months': 0,
      Change: null,
      'Units 12 Months': 9,
      'Invoices 12 Months': 3,
    });
  });
});

describe('the prioritized invoices sheet', () => {
  it('ranks the overdue invoices open on the day by amount times days overdue', async () => {
    const [report] = await render({ prioritizedInvoices: true });
    expect(report?.type).toBe('PRIORITIZED_INVOICES_SHEET');
    const sheet = sheetOf(await openWorkbook(report!), 'Prioritized Invoices');
    expectDressed(sheet, '"£"#,##0.00', 'Open Amount');
    const contosoDays = (asOfDay.getTime() - d('2024-07-01').getTime()) / DAY;
    expect(sheet.rows).toEqual([
      {
        Rank: 1,
        'Invoice No.': 'INV-3',
        'Customer ID': 2,
        Customer: 'Contoso',
        'Invoice Date': d('2024-06-01'),
        'Due Date': d('2024-07-01'),
        'Days Overdue': contosoDays,
        'Open Amount': 800,
        'Priority Score': 800 * contosoDays,
      },
      {
        Rank: 2,
        'Invoice No.': 'INV-1',
        'Customer ID': 1,
        Customer: 'Northwind',
        'Invoice Date': d('2025-09-01'),
        'Due Date': d('2025-10-01'),
        'Days Overdue': 54,
        'Open Amount': 400,
        'Priority Score': 400 * 54,
      },
    ]);
  });
});

describe('the AR forecast sheet', () => {
  it('is left out while the seller has no forecast', async () => {
    expect(await render({ forecast: true })).toEqual([]);
  });

  it('shows the latest collections forecast by week, by month and by customer', async () => {
    const point = (start: string, mean: number) => ({
      startDate: d(start),
      mean,
      lower80: mean * 0.8,
      upper80: mean * 1.2,
      lower95: mean * 0.6,
      upper95: mean * 1.4,
    });
    const issue = { sellerId: SELLER, asOf: d('2025-11-24'), issuedAt: d('2025-11-24') };
    await db()
      .collection(SELLER_FORECASTS)
      .insertMany([
        {
          _id: 'old',
          ...issue,
          asOf: d('2025-11-17'),
          kind: 'collections',
          method: 'old',
          history: [],
          points: [point('2025-11-18', 1)],
          scale: null,
          baseline: null,
          openInvoices: 1,
          openBalance: 1,
          beyondHorizon: 0,
          validatedSteps: 0,
        },
        {
          _id: 'new',
          ...issue,
          kind: 'collections',
          method: 'habits',
          history: [],
          points: [point('2025-11-25', 12345.4), point('2025-12-02', 20000), point('2025-12-09', 5000.6)],
          scale: null,
          baseline: [1, 2, 3],
          openInvoices: 3,
          openBalance: 170000,
          beyondHorizon: 132654,
          validatedSteps: 0,
        },
      ] as never[]);
    const customerDoc = (customerId: number, means: number[], balances: number[]) => ({
      _id: `c${customerId}`,
      ...issue,
      customerId,
      weeks: means.map((mean, i) => point(['2025-11-25', '2025-12-02', '2025-12-09'][i]!, mean)),
      baseline: [],
      invoices: balances.map((balance) => ({ balance })),
      validatedSteps: 0,
    });
    await db()
      .collection(CUSTOMER_FORECASTS)
      .insertMany([
        customerDoc(1, [10000, 20000, 0], [40000, 50000]),
        customerDoc(3, [2345, 0, 5000], [70000]),
      ] as never[]);

    const [report] = await render({ forecast: true });
    expect(report?.type).toBe('AR_FORECAST_SHEET');
    const workbook = await openWorkbook(report!);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Weekly', 'Monthly', 'Customers']);
    const weekly = sheetOf(workbook, 'Weekly');
    expectDressed(weekly, '"£"#,##0.00', 'Expected');
    expect(
      weekly.rows.map((r) => [r['Week Starting'], r.Expected, r['Low (80%)'], r['Cumulative Expected']]),
    ).toEqual([
      [d('2025-11-25'), 123.45, Math.round(12345.4 * 0.8) / 100, 123.45],
      [d('2025-12-02'), 200, 160, 323.45],
      [d('2025-12-09'), 50.01, Math.round(5000.6 * 0.8) / 100, 373.46],
    ]);
    expect(sheetOf(workbook, 'Monthly').rows).toEqual([
      { Month: 'Nov 2025', Expected: 123.45, Weeks: 1 },
      { Month: 'Dec 2025', Expected: 250.01, Weeks: 2 },
    ]);
    // Excluded Co's forecast is left out.
    expect(sheetOf(workbook, 'Customers').rows).toEqual([
      {
        'Customer ID': 1,
        Customer: 'Northwind',
        'Open Balance': 900,
        'Week of 2025-11-25': 100,
        'Week of 2025-12-02': 200,
        'Week of 2025-12-09': 0,
        'Total 3 Weeks': 300,
        'Beyond Forecast': 600,
      },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// A generated ledger, checked against naive figures computed here from its rows.

describe('sheets of a generated DEMO ledger', () => {
  const collected = new Date('2025-12-14T00:00:00.000Z');
  let ledger: LedgerPage;

  beforeAll(async () => {
    ({ page: ledger } = fetchDemoPage(
      { seed: 5, startDate: '2022-06-01', invoicesPerYear: 600 },
      { sellerId: DEMO_SELLER, since: null, until: collected, cursor: null, pageSize: 1_000_000 },
    ));
    await writeLedger(DEMO_SELLER, ledger);
    await runMetrics(DEMO_SELLER, { customerIds: [], productIds: [] });
  }, 60_000);

  /** Each invoice's open amount at the end of the as-of day, from scratch. */
  const openAt = (inv: LedgerInvoice) => {
    let open = inv.balance;
    for (const s of [...ledger.payments, ...ledger.creditMemos])
      if (s.date.getTime() >= asOfDay.getTime() + DAY)
        for (const a of s.applications) if (a.invoiceProviderId === inv.providerId) open += a.amount;
    return open;
  };
  const dated = (inv: LedgerInvoice) => inv.transactionDate.getTime() < asOfDay.getTime() + DAY;
  const daysPastDue = (inv: LedgerInvoice) => (asOfDay.getTime() - inv.dueDate.getTime()) / DAY;

  it('agrees with the ledger on every customer: balances, aging, sales and last payment', async () => {
    const [report] = await render({ customerSheet: true }, DEMO_SELLER);
    const sheet = sheetOf(await openWorkbook(report!), 'Customers');
    expectDressed(sheet, '"£"#,##0.00', 'Open Balance');
    expect(sheet.rows).toHaveLength(ledger.customers.length);
    const yearAgo = Date.UTC(2024, 10, 24);
    const threeYearsAgo = Date.UTC(2022, 10, 24);
    for (const customer of ledger.customers) {
      const invoices = ledger.invoices.filter((i) => i.customerId === customer.customerId && dated(i));
      const open = invoices
        .map((i) => ({ open: openAt(i), late: daysPastDue(i) }))
        .filter((o) => o.open !== 0);
      const sum = (list: { open: number }[]) => list.reduce((a, o) => a + o.open, 0);
      const salesSince = (ms: number) =>
        invoices.filter((i) => i.transactionDate.getTime() >= ms + DAY).reduce((a, i) => a + i.amount, 0);
      const payments = ledger.payments.filter(
        (p) => p.customerId === customer.customerId && p.date.getTime() < asOfDay.getTime() + DAY,
      );
      const lastPayment =
        payments.length === 0 ? null : new Date(Math.max(...payments.map((p) => p.date.getTime())));
      const row = sheet.rows.find((r) => r['Customer ID'] === customer.customerId);
      expect(row).toMatchObject({
        Customer: customer.name,
        'Open Balance': money(sum(open)),
        Current: money(sum(open.filter((o) => o.late <= 0))),
        Overdue: money(sum(open.filter((o) => o.late > 0))),
        '1-30 Days': money(sum(open.filter((o) => o.late > 0 && o.late <= 30))),
        '31-60 Days': money(sum(open.filter((o) => o.late > 30 && o.late <= 60))),
        '61-90 Days': money(sum(open.filter((o) => o.late > 60 && o.late <= 90))),
        'Over 90 Days': money(sum(open.filter((o) => o.late > 90))),
        'Sales 12 Months': money(salesSince(yearAgo)),
        'Sales 36 Months': money(salesSince(threeYearsAgo)),
        'Last Payment':
          lastPayment &&
          new Date(
            Date.UTC(lastPayment.getUTCFullYear(), lastPayment.getUTCMonth(), lastPayment.getUTCDate()),
          ),
      });
    }
    const overdue = sheet.rows.reduce((a, r) => a + Math.round(Number(r.Overdue) * 100), 0);
    expect(overdue).toBeGreaterThan(0);
  });

  it('ranks the same overdue invoices the ledger gives, by amount times days', async () => {
    const [report] = await render({ prioritizedInvoices: true }, DEMO_SELLER);
    const sheet = sheetOf(await openWorkbook(report!), 'Prioritized Invoices');
    const expected = ledger.invoices
      .filter(dated)
      .map((i) => ({ i, open: openAt(i), days: daysPastDue(i) }))
      .filter((o) => o.open > 0 && o.days > 0)
      .sort((a, b) => b.open * b.days - a.open * a.days || a.i.dueDate.getTime() - b.i.dueDate.getTime());
    expect(expected.length).toBeGreaterThan(3);
    expect(sheet.rows.map((r) => [r['Invoice No.'], r['Open Amount'], r['Days Overdue']])).toEqual(
      expected.map((o) => [o.i.docNumber, money(o.open), o.days]),
    );
    expect(sheet.rows.map((r) => r.Rank)).toEqual(expected.map((_, i) => i + 1));
  });
});
