import { QbdConfigResponse, QbdLogsResponse } from '../../contracts/api/qbd';
import { SellerResponse } from '../../contracts/api/sellers';
import { ledgerCollections } from '../../workflows/ledger/ledger-collections';
import { createQbdConnector } from '../../workflows/connectors/qbd/qbd-connector';
import {
  QBD_RESETS_COLLECTION,
  QBD_SESSIONS_COLLECTION,
  type QbdSessionDoc,
} from '../../workflows/connectors/qbd/qbd-session';
import { jobStream } from '../../contracts/stream-ids';
import { child, parseXml, textAt } from '../../workflows/connectors/qbd/xml';
import {
  createQuickBooksDesktopFake,
  type FakeCompany,
  type FakeInvoice,
  type FakeJournalEntry,
  type FakePayment,
} from '../fakes/qbd-desktop-fake';
import { companyFor, platformAdmin, signUp } from '../gateway/fixtures';
import { useGatewayWorld } from '../gateway/gateway-world';
import { grantProducts } from '../gateway/platform-fixtures';

/**
 * The QuickBooks Desktop Web Connector's SOAP service driven the way the Web Connector drives it
 * (ADR 44): authenticate with the .qwc file's one-time password, rounds of sendRequestXML and
 * receiveResponseXML answered by a fake QuickBooks in qbXML (iterators continued across calls), then
 * closeConnection; the ledger holds the company's figures in cents, a later run brings changes and
 * deletions, a wrong password gets "nvu", and no browser CSRF token is needed.
 */
const world = useGatewayWorld(__filename);

const soap = async (method: string, params: Record<string, string> = {}) => {
  const body = Object.entries(params)
    .map(
      ([name, value]) =>
        `<${name}>${value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</${name}>`,
    )
    .join('');
  const response = await world.app.inject({
    method: 'POST',
    url: '/api/qbd/soap',
    headers: {
      'content-type': 'text/xml; charset=utf-8',
      soapaction: `"http://developer.intuit.com/${method}"`,
    },
    payload:
      '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
      `<soap:Body><${method} xmlns="http://developer.intuit.com/">${body}</${method}></soap:Body></soap:Envelope>`,
  });
  const result = child(child(child(parseXml(response.body), 'Body'), `${method}Response`), `${method}Result`);
  return { status: response.statusCode, type: response.headers['content-type'], result };
};

const cents = (decimal: string) => Math.round(Number(decimal) * 100);
/** The first run's instant and the second's, ten minutes apart, ahead of the sign-ups. */
const firstRun = new Date(Math.ceil((Date.now() + 60_000) / 1000) * 1000);
const secondRun = new Date(firstRun.getTime() + 10 * 60_000);
const thirdRun = new Date(firstRun.getTime() + 20 * 60_000);
const between = (minutes: number) =>
  new Date(firstRun.getTime() + minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
const qbTime = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, '+00:00');

/** 3 customers, 2 items, 250 invoices (one in a foreign currency), 1 credit memo, 40 payments. */
const fixtures = (): FakeCompany => {
  const old = '2025-06-01T10:00:00+00:00';
  const customers = [1, 2, 3].map((n) => ({
    ListID: `80000001-170000000${n}`,
    Name: `Customer ${n} & Sons`,
    Email: `c${n}@example.test`,
    TimeCreated: old,
    TimeModified: old,
  }));
  const items = [
    { ListID: '80000010-1700000010', Name: 'Consulting', Price: '150.00', TimeModified: old },
    { ListID: '80000011-1700000011', Name: 'Support', Price: '75.50', TimeModified: old },
  ];
  const invoices: FakeInvoice[] = Array.from({ length: 250 }, (_, i) => {
    const n = i + 1;
    const a = `${((n * 7) % 500) + 10}.${String((n * 13) % 100).padStart(2, '0')}`;
    const b = `${((n * 3) % 90) + 1}.${String((n * 29) % 100).padStart(2, '0')}`;
    const subtotal = ((cents(a) + cents(b)) / 100).toFixed(2);
    const tax = `${n % 5}.${String(n % 100).padStart(2, '0')}`;
    const total = ((cents(subtotal) + cents(tax)) / 100).toFixed(2);
    return {
      TxnID: `${1000 + n}-1700000000`,
      CustomerListID: customers[n % 3]!.ListID,
      RefNumber: `INV-${n}`,
      TxnDate: '2025-07-01',
      DueDate: '2025-07-31',
      Subtotal: subtotal,
      SalesTaxTotal: tax,
      BalanceRemaining: n % 4 === 0 ? '0.00' : total,
      Lines: [
        { ItemListID: items[0]!.ListID, Quantity: '1', Amount: a },
        { ItemListID: items[1]!.ListID, Quantity: '2', Amount: b },
      ],
      TimeModified: old,
    };
  });
  // A foreign-currency invoice: 100.00 at 1.25 is 125.00 at home.
  invoices.push({
    TxnID: '9999-1700000000',
    CustomerListID: customers[0]!.ListID,
    RefNumber: 'INV-EUR',
    TxnDate: '2025-07-02',
    DueDate: '2025-08-01',
    Subtotal: '100.00',
    SalesTaxTotal: '0.00',
    BalanceRemaining: '100.00',
    ExchangeRate: '1.25',
    BalanceRemainingInHomeCurrency: '125.00',
    Lines: [{ ItemListID: items[0]!.ListID, Quantity: '1', Amount: '100.00' }],
    TimeModified: old,
  });
  // A malformed invoice (no customer): counted, logged with its TxnID and skipped; the run goes on.
  invoices.push({ ...invoices[0]!, TxnID: 'broken-1700000000', RefNumber: 'INV-BROKEN', CustomerListID: '' });
  const payments: FakePayment[] = Array.from({ length: 40 }, (_, i) => {
    const invoice = invoices[i * 4 + 3]!;
    const amount = ((cents(invoice.Subtotal) + cents(invoice.SalesTaxTotal)) / 100).toFixed(2);
    return {
      TxnID: `${5000 + i}-1700000000`,
      CustomerListID: invoice.CustomerListID,
      TxnDate: '2025-07-15',
      TotalAmount: amount,
      Applied: [{ TxnID: invoice.TxnID, PaymentAmount: amount }],
      TimeModified: old,
    };
  });
  const creditMemos = [
    {
      TxnID: '7000-1700000000',
      CustomerListID: customers[1]!.ListID,
      TxnDate: '2025-07-20',
      TotalAmount: '10.00',
      Applied: [{ TxnID: invoices[0]!.TxnID, Amount: '10.00' }],
      TimeModified: old,
    },
  ];
  const salesReceipts = [1, 2].map((n) => ({
    TxnID: `${8000 + n}-1700000000`,
    CustomerListID: customers[n]!.ListID,
    TxnDate: '2025-07-25',
    TotalAmount: `${n * 50}.25`,
    Lines: [{ ItemListID: items[1]!.ListID, Quantity: '1', Amount: `${n * 50}.25` }],
    TimeModified: old,
  }));
  // Journal entries: one charges customer 1 through Accounts Receivable (its income line names the
  // customer too, which makes it no receivable), one credits customer 2; a payment pays part of the first.
  const accounts = [
    {
      ListID: RECEIVABLES,
      FullName: 'Accounts Receivable',
      AccountType: 'AccountsReceivable',
      TimeModified: old,
    },
    { ListID: '80000021-1700000021', FullName: 'Sales', AccountType: 'Income', TimeModified: old },
  ];
  const journalEntries: FakeJournalEntry[] = [
    {
      TxnID: '9100-1700000000',
      TxnDate: '2025-07-05',
      RefNumber: 'JE-1',
      Lines: [
        { Side: 'Debit', AccountListID: RECEIVABLES, Amount: '120.00', EntityListID: customers[0]!.ListID },
        {
          Side: 'Credit',
          AccountListID: accounts[1]!.ListID,
          Amount: '120.00',
          EntityListID: customers[0]!.ListID,
        },
      ],
      TimeModified: old,
    },
    {
      TxnID: '9200-1700000000',
      TxnDate: '2025-07-06',
      RefNumber: 'JE-2',
      Lines: [
        { Side: 'Debit', AccountListID: accounts[1]!.ListID, Amount: '30.00' },
        { Side: 'Credit', AccountListID: RECEIVABLES, Amount: '30.00', EntityListID: customers[1]!.ListID },
      ],
      TimeModified: old,
    },
  ];
  payments.push({
    TxnID: '5900-1700000000',
    CustomerListID: customers[0]!.ListID,
    TxnDate: '2025-07-16',
    TotalAmount: '40.00',
    Applied: [{ TxnID: journalEntries[0]!.TxnID, PaymentAmount: '40.00', TxnType: 'JournalEntry' }],
    TimeModified: old,
  });
  // Classes and estimates are no receivables: counted and dated for the log viewer only.
  const classes = ['Retail', 'Wholesale'].map((name, n) => ({
    ListID: `80000030-170000003${n}`,
    Name: name,
    TimeModified: old,
  }));
  const estimates = [1, 2, 3].map((n) => ({
    TxnID: `${9500 + n}-1700000000`,
    CustomerListID: customers[0]!.ListID,
    TxnDate: '2025-07-03',
    RefNumber: `EST-${n}`,
    TotalAmount: `${n * 100}.00`,
    TimeModified: old,
  }));
  return {
    customers,
    items,
    invoices,
    creditMemos,
    payments,
    salesReceipts,
    deleted: [],
    accounts,
    classes,
    estimates,
    journalEntries,
  };
};
const RECEIVABLES = '80000020-1700000020';
/** What journal entries charge customers through Accounts Receivable: invoices of the ledger. */
const journalDebits = (company: FakeCompany) =>
  (company.journalEntries ?? [])
    .flatMap((j) => j.Lines)
    .filter((l) => l.Side === 'Debit' && l.AccountListID === RECEIVABLES && l.EntityListID)
    .reduce((n, l) => n + cents(l.Amount), 0);

type LedgerRow = {
  providerId: string;
  amount: number;
  balance?: number;
  applications?: { amount: number }[];
};
const rows = (entity: keyof typeof ledgerCollections, sellerId: number) =>
  world.services.db.collection<LedgerRow>(ledgerCollections[entity]).find({ sellerId }).toArray();
const receiptsTotal = (company: FakeCompany) =>
  company.salesReceipts.reduce((n, r) => n + cents(r.TotalAmount), 0);
const wellFormed = (invoice: FakeInvoice) => invoice.CustomerListID !== '';
const sum = (list: { amount: number }[]) => list.reduce((n, r) => n + r.amount, 0);

/** A Web Connector run: authenticate, then request/response rounds until 100 percent, then close. */
const runWebConnector = async (
  credentials: { user: string; password: string },
  quickbooks: ReturnType<typeof createQuickBooksDesktopFake>,
) => {
  expect((await soap('serverVersion')).result?.text).toMatch(/Ledgerwise/);
  expect((await soap('clientVersion', { strVersion: '2.3.0.215' })).result?.text).toBe('');
  const auth = await soap('authenticate', {
    strUserName: credentials.user,
    strPassword: credentials.password,
  });
  const [ticket = '', company = ''] = auth.result!.children.map((c) => c.text);
  expect(ticket).not.toBe('');
  // '' is the company file open in QuickBooks; here the path given at install time ("none" would be no work).
  expect(company).toBe('');
  const percents: number[] = [];
  for (let round = 0; round < 50; round += 1) {
    const request = await soap('sendRequestXML', {
      ticket,
      strHCPResponse: '',
      strCompanyFileName: 'C:\\Books\\Acme.QBW',
      qbXMLCountry: 'US',
      qbXMLMajorVers: '13',
      qbXMLMinorVers: '0',
    });
    const qbxml = request.result?.text ?? '';
    expect(qbxml).not.toBe('');
    const answer = quickbooks.answer(qbxml);
    const percent = await soap('receiveResponseXML', { ticket, response: answer, hresult: '', message: '' });
    if (round === 5) {
      // The first invoice page (after accounts, classes, customers, items, estimates) delivered twice (a retried call): the iterator does not move twice.
      const again = await soap('receiveResponseXML', { ticket, response: answer, hresult: '', message: '' });
      expect(again.result?.text).toBe(percent.result?.text);
    }
    percents.push(Number(percent.result?.text));
    if (percents.at(-1)! >= 100 || percents.at(-1)! < 0) break;
  }
  const closed = await soap('closeConnection', { ticket });
  return { ticket, percents, closed: closed.result?.text ?? '' };
};

let sellerId = 0;
let password = '';
let admin: Awaited<ReturnType<typeof signUp>>;
const quickbooks = createQuickBooksDesktopFake(fixtures());

beforeAll(async () => {
  admin = await signUp(world, { name: 'desktop-admin' });
  const tenantId = await companyFor(world, admin, { name: 'Desktop Books Co' });
  await grantProducts(world, tenantId, ['platforms/qbd_web_connector']);
  const made = QbdConfigResponse.parse((await admin.browser.post('/api/qbd/config', {})).json());
  sellerId = made.Id;
  password = made.password;
  world.clock.set(firstRun);
}, 60_000);

describe('the QuickBooks Web Connector SOAP service', () => {
  it('answers "nvu" to a wrong password and logs the failure', async () => {
    const auth = await soap('authenticate', {
      strUserName: `lw-qbd-${sellerId}`,
      strPassword: 'not-the-password',
    });
    expect(auth.status).toBe(200);
    expect(auth.type).toMatch(/^text\/xml/);
    expect(auth.result!.children.map((c) => c.text)).toEqual(['', 'nvu']);
    const unknown = await soap('authenticate', { strUserName: 'lw-qbd-999999999', strPassword: password });
    expect(unknown.result!.children.map((c) => c.text)).toEqual(['', 'nvu']);
  });

  it('populates the ledger through iterators continued across calls, figures equal to the company', async () => {
    const run = await runWebConnector({ user: `lw-qbd-${sellerId}`, password }, quickbooks);
    expect(run.percents.at(-1)).toBe(100);
    expect(run.percents.slice(0, -1).every((p) => p >= 0 && p < 100)).toBe(true);
    expect([...run.percents].sort((a, b) => a - b)).toEqual(run.percents);
    expect(run.closed).toMatch(/^Synced \d+ records\.$/);
    // 251 invoices at 100 a page: Start, then Continue twice with QuickBooks' iteratorID.
    const invoiceRequests = quickbooks.requests.filter((r) => r.includes('<InvoiceQueryRq'));
    expect(invoiceRequests).toHaveLength(3);
    expect(invoiceRequests[0]).toContain('iterator="Start"');
    expect(invoiceRequests[1]).toMatch(/iterator="Continue" iteratorID="\{[0-9A-F]+-FAKE-ITER\}"/);
    expect(quickbooks.requests.some((r) => r.includes('FromModifiedDate'))).toBe(false);

    const company = quickbooks.company;
    const invoices = await rows('invoices', sellerId);
    // 251 invoices, 2 sales receipts and the journal entry charging customer 1.
    expect(invoices).toHaveLength(254);
    const expected = company.invoices
      .filter(wellFormed)
      .reduce(
        (n, i) =>
          n + Math.round((cents(i.Subtotal) + cents(i.SalesTaxTotal)) * Number(i.ExchangeRate ?? '1')),
        receiptsTotal(company) + journalDebits(company),
      );
    expect(sum(invoices)).toBe(expected);
    const open = company.invoices
      .filter(wellFormed)
      .reduce((n, i) => n + cents(i.BalanceRemainingInHomeCurrency ?? i.BalanceRemaining), 12000 - 4000);
    expect(invoices.reduce((n, i) => n + i.balance!, 0)).toBe(open);
    // The journal entry's receivable line is an invoice, owing what the payment left.
    const journalInvoiceId = `9100-1700000000:${company.customers[0]!.ListID}`;
    expect(invoices.find((i) => i.providerId === journalInvoiceId)).toMatchObject({
      amount: 12000,
      balance: 8000,
    });
    expect(invoices.find((i) => i.providerId === '9999-1700000000')).toMatchObject({
      amount: 12500,
      balance: 12500,
    });
    const payments = await rows('payments', sellerId);
    // 41 payments (one on the journal entry) and the settlements of the 2 sales receipts.
    expect(payments).toHaveLength(43);
    expect(payments.find((p) => p.providerId === '5900-1700000000')?.applications).toEqual([
      { invoiceProviderId: journalInvoiceId, amount: 4000 },
    ]);
    expect(sum(payments)).toBe(
      company.payments.reduce((n, p) => n + cents(p.TotalAmount), 0) + receiptsTotal(company),
    );
    expect(payments.every((p) => p.applications?.[0]?.amount === p.amount)).toBe(true);
    const memos = await rows('creditMemos', sellerId);
    expect(memos).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          amount: 1000,
          applications: [{ invoiceProviderId: company.invoices[0]!.TxnID, amount: 1000 }],
        }),
        // The journal entry crediting customer 2 through Accounts Receivable.
        expect.objectContaining({
          providerId: `9200-1700000000:${company.customers[1]!.ListID}`,
          amount: 3000,
          applications: [],
        }),
      ]),
    );
    expect(memos).toHaveLength(2);
    // The first run asked for the receivable accounts, then classes and estimates, without line items.
    expect(quickbooks.requests[0]).toContain('<AccountType>AccountsReceivable</AccountType>');
    expect(quickbooks.requests.find((r) => r.includes('<EstimateQueryRq'))).not.toContain('IncludeLineItems');
    expect(quickbooks.requests.find((r) => r.includes('<JournalEntryQueryRq'))).toContain('iterator="Start"');
    expect(await rows('customers', sellerId)).toHaveLength(3);
    expect((await rows('products', sellerId)).length).toBe(3);

    await world.settle();
    const seller = SellerResponse.parse((await admin.browser.get(`/api/sellers/${sellerId}`)).json());
    expect(seller.CollectionDate).toBe(firstRun.toISOString());
    expect(seller.Status.text).toMatch(/^Last sync on/);
    // The run asks for the seller's metrics, as the sync workflow does after a sync.
    const session = await world.services.db
      .collection<QbdSessionDoc>(QBD_SESSIONS_COLLECTION)
      .findOne({ _id: run.ticket });
    const [created] = await world.services.writeSide.store.readStream(jobStream(session!.metricsJobId!));
    expect(created?.data).toMatchObject({ kind: 'metrics', sellerId, parameters: { type: 'sellers' } });
  }, 120_000);

  it('brings changes and deletions of a later run, asking only for what changed since', async () => {
    world.clock.set(secondRun);
    const company = quickbooks.company;
    const changed = company.invoices[4]!;
    changed.Subtotal = '500.00';
    changed.SalesTaxTotal = '0.00';
    changed.Lines = [{ ItemListID: company.items[0]!.ListID, Quantity: '1', Amount: '500.00' }];
    changed.TimeModified = between(4);
    const gone = company.invoices[6]!;
    company.invoices.splice(6, 1);
    company.deleted.push({
      TxnDelType: 'Invoice',
      TxnID: gone.TxnID,
      TimeDeleted: between(5),
    });
    // The crediting journal entry is deleted; a new payment pays 20.00 more of the charging one,
    // which itself does not change.
    company.journalEntries!.splice(1, 1);
    company.deleted.push({ TxnDelType: 'JournalEntry', TxnID: '9200-1700000000', TimeDeleted: between(5) });
    company.payments.push({
      TxnID: '5901-1700000000',
      CustomerListID: company.customers[0]!.ListID,
      TxnDate: '2025-07-20',
      TotalAmount: '20.00',
      Applied: [{ TxnID: '9100-1700000000', PaymentAmount: '20.00', TxnType: 'JournalEntry' }],
      TimeModified: between(4),
    });
    const before = quickbooks.requests.length;

    const run = await runWebConnector({ user: `lw-qbd-${sellerId}`, password }, quickbooks);
    expect(run.percents.at(-1)).toBe(100);
    const asked = quickbooks.requests.slice(before);
    expect(asked.find((r) => r.includes('<InvoiceQueryRq'))).toContain(
      `<ModifiedDateRangeFilter><FromModifiedDate>${qbTime(firstRun)}</FromModifiedDate>`,
    );
    expect(asked.some((r) => r.includes('<TxnDeletedQueryRq'))).toBe(true);
    expect(asked.find((r) => r.includes('<TxnDeletedQueryRq'))).toContain(
      '<TxnDelType>JournalEntry</TxnDelType>',
    );
    for (const query of ['JournalEntryQueryRq', 'EstimateQueryRq'])
      expect(asked.find((r) => r.includes(`<${query}`))).toContain(
        `<ModifiedDateRangeFilter><FromModifiedDate>${qbTime(firstRun)}</FromModifiedDate>`,
      );
    expect(asked.find((r) => r.includes('<ClassQueryRq'))).toContain(
      `<FromModifiedDate>${qbTime(firstRun)}</FromModifiedDate>`,
    );

    const invoices = await rows('invoices', sellerId);
    // The deleted invoice's row is gone (the feed carries its tombstone).
    expect(invoices).toHaveLength(253);
    expect(
      invoices.find((i) => i.providerId === `9100-1700000000:${company.customers[0]!.ListID}`),
    ).toMatchObject({ amount: 12000, balance: 6000 });
    // So is the deleted journal entry's credit.
    expect((await rows('creditMemos', sellerId)).map((m) => m.providerId)).not.toContain(
      `9200-1700000000:${company.customers[1]!.ListID}`,
    );
    expect(invoices.find((i) => i.providerId === changed.TxnID)).toMatchObject({ amount: 50000 });
    expect(invoices.find((i) => i.providerId === gone.TxnID)).toBeUndefined();
    const expected = company.invoices
      .filter(wellFormed)
      .reduce(
        (n, i) =>
          n + Math.round((cents(i.Subtotal) + cents(i.SalesTaxTotal)) * Number(i.ExchangeRate ?? '1')),
        receiptsTotal(company) + journalDebits(company),
      );
    expect(sum(invoices)).toBe(expected);
    await world.settle();
    const seller = SellerResponse.parse((await admin.browser.get(`/api/sellers/${sellerId}`)).json());
    expect(seller.CollectionDate).toBe(secondRun.toISOString());
  }, 120_000);

  it('after a Reset, the next run asks QuickBooks for everything again', async () => {
    // What the sync workflow's Repopulate does for a QBD seller: its ledger emptied, then the connector.
    await createQbdConnector({ db: world.services.db, now: world.clock.now }).fetchPage({
      sellerId,
      since: null,
      until: world.clock.now(),
      cursor: null,
      pageSize: 500,
    });
    world.clock.set(thirdRun);
    const before = quickbooks.requests.length;
    const run = await runWebConnector({ user: `lw-qbd-${sellerId}`, password }, quickbooks);
    expect(run.percents.at(-1)).toBe(100);
    const asked = quickbooks.requests.slice(before);
    expect(asked.some((r) => r.includes('ModifiedDate') || r.includes('TxnDeletedQueryRq'))).toBe(false);
    expect(asked.filter((r) => r.includes('<InvoiceQueryRq'))).toHaveLength(3);
    expect(
      await world.services.db.collection(QBD_RESETS_COLLECTION).countDocuments({ _id: sellerId as never }),
    ).toBe(0);
  }, 120_000);

  it('needs no browser CSRF token, while the session ticket still gates every call', async () => {
    // No cookie and no x-csrf-token: answered in SOAP, not refused with 403.
    const server = await soap('serverVersion');
    expect(server.status).toBe(200);
    const stranger = await soap('sendRequestXML', { ticket: 'made-up-ticket' });
    expect(stranger.result?.text).toBe('');
    expect(
      (
        await soap('receiveResponseXML', {
          ticket: 'made-up-ticket',
          response: '<QBXML/>',
          hresult: '',
          message: '',
        })
      ).result?.text,
    ).toBe('-1');
    const fault = await world.app.inject({
      method: 'POST',
      url: '/api/qbd/soap',
      headers: { 'content-type': 'text/xml' },
      payload:
        '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><dropTables/></soap:Body></soap:Envelope>',
    });
    expect(fault.statusCode).toBe(400);
    expect(textAt(child(parseXml(fault.body), 'Body'), 'Fault', 'faultstring')).toBe(
      'Unknown method: dropTables',
    );
  });

  it('shows platform admins the request log, with the wrong password as a FAIL: entry', async () => {
    const operator = await platformAdmin(world);
    const response = await operator.browser.get(`/api/qbd/logs/${sellerId}?limit=1000`);
    expect(response.statusCode).toBe(200);
    const body = QbdLogsResponse.parse(response.json());
    expect(body.logs.some((l) => l.Endpoint === 'authenticate' && l.Status.startsWith('FAIL:'))).toBe(true);
    expect(
      body.logs.filter((l) => l.Endpoint === 'receiveResponseXML' && l.Status === 'OK').length,
    ).toBeGreaterThan(10);
    expect(body.logs.filter((l) => l.Status === 'OK: 1 malformed records skipped')).toHaveLength(2);
    const days = new Set([firstRun, secondRun, thirdRun].map((d) => d.toISOString().slice(0, 10)));
    expect(body.summary.map((s) => s.date)).toEqual([...days].sort());
    expect(body.summary.reduce((n, s) => n + s.count, 0)).toBe(body.logs.length);
    expect(body.config.lastSyncs.invoices).toBe(thirdRun.toISOString());
    // Classes, estimates and journal entries have their last sync too; classes and estimates are counted.
    for (const kind of ['classes', 'estimates', 'journalEntries'])
      expect(body.config.lastSyncs[kind]).toBe(thirdRun.toISOString());
    expect(body.logs.filter((l) => l.Request === 'ClassQueryRs').map((l) => l.Records)).toContain(2);
    expect(body.logs.filter((l) => l.Request === 'EstimateQueryRs').map((l) => l.Records)).toContain(3);
    expect(body.config.companyFile).toBe('C:\\Books\\Acme.QBW');
    expect((await admin.browser.get(`/api/qbd/logs/${sellerId}`)).statusCode).toBe(403);
  });
});
