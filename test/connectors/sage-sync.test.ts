import { handleCommand } from '../../commands/command-handler';
import { createCredentialVault } from '../../commands/credential-vault';
import type { Config } from '../../contracts/config';
import { sellerStream } from '../../contracts/stream-ids';
import { systemActor } from '../../domain/actor';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { checkSageLogin, SageError } from '../../workflows/connectors/sage-intacct/sage-client';
import { sageDateTime } from '../../workflows/connectors/sage-intacct/sage-mapping';
import { ledgerIdOf } from '../../workflows/connectors/shared/ledger-ids';
import {
  startSageIntacctFake,
  type SageCompany,
  type SageIntacctFake,
  type SageRecord,
} from '../fakes/sage-intacct-fake';
import { useLedgerWorld } from '../workflows/ledger-world';
import { connectorWorkers, runSync, sellerState, storedLedger, sumOf } from './connector-world';

/**
 * The Sage Intacct connector through its fake XML gateway (ADR 44, Sage section): a populate paged
 * with readByQuery and readMore through an HTTP 503, an incremental sync of what changed since the
 * CollectionDate, ledger figures equal to the company's, and a refused login in Sage's own words.
 */
jest.setTimeout(180_000);

const world = useLedgerWorld(__filename);
let fake: SageIntacctFake;
let config: Config;
const workers = connectorWorkers(world, () => config);

const old = '06/01/2025 10:00:00';
const cents = (decimal: string) => Math.round(Number(decimal) * 100);
const decimal = (amount: number) => (amount / 100).toFixed(2);

/**
 * An invoice's ARINVOICEITEMs: an item line of about two thirds of the total, and the rest on a
 * second item (even invoices) or on a GL account with no item (odd ones: the ledger's adjustments).
 */
const invoiceItems = (invoice: SageRecord, n: number): SageRecord[] => {
  const total = cents(invoice.TOTALENTERED!);
  const first = Math.round((total * 2) / 3);
  const line = (no: number, amount: number, item: string | null): SageRecord => ({
    RECORDNO: `${invoice.RECORDNO}${no}`,
    RECORDKEY: invoice.RECORDNO!,
    LINE_NO: String(no),
    ACCOUNTNO: '4000',
    AMOUNT: decimal(amount),
    TRX_AMOUNT: decimal(amount),
    ...(item ? { ITEMID: item, ITEMNAME: `Service ${item}` } : {}),
    WHENMODIFIED: invoice.WHENMODIFIED!,
  });
  return [line(1, first, `SVC-${n % 4}`), line(2, total - first, n % 2 === 0 ? 'SVC-9' : null)];
};

/** ARPYMTDETAILs: the cash a payment applies to an invoice, or a credit adjustment it applies. */
const cashDetail = (payment: string, invoice: string, amount: string, no = 1): SageRecord => ({
  RECORDNO: `${payment}${no}`,
  PAYMENTKEY: payment,
  RECORDKEY: invoice,
  PAYMENTAMOUNT: amount,
  TRX_PAYMENTAMOUNT: amount,
  WHENMODIFIED: old,
});
const creditDetail = (payment: string, invoice: string, adjustment: string, amount: string, no = 2) => ({
  RECORDNO: `${payment}${no}`,
  PAYMENTKEY: payment,
  RECORDKEY: invoice,
  ADJUSTMENTKEY: adjustment,
  ADJUSTMENTAMOUNT: amount,
  TRX_ADJUSTMENTAMOUNT: amount,
  WHENMODIFIED: old,
});

const company = (): SageCompany => {
  const customers = Array.from({ length: 30 }, (_, i) => ({
    RECORDNO: String(i + 1),
    CUSTOMERID: `C-${String(i + 1).padStart(4, '0')}`,
    NAME: `Customer ${i + 1} & Co`,
    'DISPLAYCONTACT.EMAIL1': `c${i + 1}@example.test`,
    WHENCREATED: '05/01/2025 09:00:00',
    WHENMODIFIED: old,
  }));
  const invoices: SageRecord[] = Array.from({ length: 250 }, (_, i) => {
    const n = i + 1;
    const total = `${((n * 37) % 900) + 20}.${String((n * 17) % 100).padStart(2, '0')}`;
    return {
      RECORDNO: String(1000 + n),
      RECORDID: `INV-${n}`,
      CUSTOMERID: customers[n % 30]!.CUSTOMERID,
      WHENCREATED: '07/01/2025',
      WHENDUE: '07/31/2025',
      TOTALENTERED: total,
      TOTALDUE: n % 3 === 0 ? '0.00' : total,
      STATE: n % 3 === 0 ? 'Paid' : 'Posted',
      WHENMODIFIED: old,
    };
  });
  const paidInvoices = invoices.filter((_, i) => (i + 1) % 3 === 0);
  const payments: SageRecord[] = paidInvoices.map((invoice, i) => ({
    RECORDNO: String(5000 + i),
    CUSTOMERID: invoice.CUSTOMERID!,
    RECEIPTDATE: '07/15/2025',
    WHENCREATED: '07/15/2025',
    TOTALENTERED: invoice.TOTALENTERED!,
    WHENMODIFIED: old,
  }));
  const details = paidInvoices.map((invoice, i) =>
    cashDetail(payments[i]!.RECORDNO!, invoice.RECORDNO!, invoice.TOTALENTERED!),
  );
  const adjustments = [1, 2, 3].map((n) => ({
    RECORDNO: String(7000 + n),
    CUSTOMERID: customers[n]!.CUSTOMERID,
    WHENCREATED: '07/20/2025',
    TOTALENTERED: `-${n * 10}.50`,
    WHENMODIFIED: old,
  }));
  // Invoice 1002 is settled by credit adjustment 7002 (20.50) and cash for the rest, on one payment.
  const settled = invoices[1]!;
  const cash = decimal(cents(settled.TOTALENTERED!) - 2050);
  settled.TOTALDUE = '0.00';
  payments.push({
    RECORDNO: '5500',
    CUSTOMERID: settled.CUSTOMERID!,
    RECEIPTDATE: '07/25/2025',
    WHENCREATED: '07/25/2025',
    TOTALENTERED: cash,
    WHENMODIFIED: old,
  });
  details.push(
    cashDetail('5500', settled.RECORDNO!, cash),
    creditDetail('5500', settled.RECORDNO!, '7002', '20.50'),
  );
  return {
    login: { companyId: 'ACME-CO', userId: 'ws-user', password: 'Sage-secret-1' },
    objects: {
      CUSTOMER: customers,
      ARINVOICE: invoices,
      ARADJUSTMENT: adjustments,
      ARPYMT: payments,
      ARINVOICEITEM: invoices.flatMap((invoice, i) => invoiceItems(invoice, i + 1)),
      ARPYMTDETAIL: details,
    },
  };
};

const connectSage = async (seller: { sellerId: number; tenantId: number; password: string }) => {
  const vault = createCredentialVault({ db: world.db(), masterSecret: world.config.SESSION_SECRET });
  const credentialsRef = await vault.store({
    tenantId: seller.tenantId,
    kind: 'sage',
    secret: { companyId: 'ACME-CO', userId: 'ws-user', password: seller.password },
  });
  await handleCommand(
    sellerDecider,
    {
      streamId: sellerStream(seller.sellerId),
      commandId: `connect-${seller.sellerId}`,
      command: {
        type: 'ConnectSeller',
        now: new Date(),
        data: {
          sellerId: seller.sellerId,
          tenantId: seller.tenantId,
          provider: 'SAGE',
          actor: systemActor,
          tenantIsDemo: false,
          tenantHasConnectedSeller: false,
          planAllowsProvider: true,
          companyName: 'ACME-CO',
          url: null,
          authMethod: 'password',
          authTokenOwner: 'ws-user',
          credentialsRef,
          companyFilePath: null,
        },
      },
    },
    world.events().writeSide,
  );
};

const figuresOf = (objects: SageCompany['objects']) => ({
  invoices: objects.ARINVOICE.length,
  sales: sumOf(objects.ARINVOICE, (r) => cents(r.TOTALENTERED!)),
  open: sumOf(objects.ARINVOICE, (r) => cents(r.TOTALDUE!)),
  paid: sumOf(objects.ARPYMT, (r) => cents(r.TOTALENTERED!)),
  credits: sumOf(objects.ARADJUSTMENT, (r) => Math.abs(cents(r.TOTALENTERED!))),
  customers: objects.CUSTOMER.length,
});

/** Every invoice's amount less what payments and credits apply to it is Sage's TOTALDUE. */
const unappliedDisagreements = async (sellerId: number, objects: SageCompany['objects']) => {
  const ledger = await storedLedger(world.db(), sellerId);
  const applied = new Map<string, number>();
  for (const settlement of [...ledger.payments, ...ledger.creditMemos])
    for (const a of settlement.applications)
      applied.set(a.invoiceProviderId, (applied.get(a.invoiceProviderId) ?? 0) + a.amount);
  return objects.ARINVOICE.map((invoice) => ({
    invoice: invoice.RECORDNO!,
    due: cents(invoice.TOTALDUE!),
    unapplied: cents(invoice.TOTALENTERED!) - (applied.get(invoice.RECORDNO!) ?? 0),
  })).filter((row) => row.due !== row.unapplied);
};

const ledgerFiguresOf = async (sellerId: number) => {
  const ledger = await storedLedger(world.db(), sellerId);
  return {
    invoices: ledger.invoices.length,
    sales: sumOf(ledger.invoices, (r) => r.amount),
    open: sumOf(ledger.invoices, (r) => r.balance),
    paid: sumOf(ledger.payments, (r) => r.amount),
    credits: sumOf(ledger.creditMemos, (r) => r.amount),
    customers: ledger.customers.length,
  };
};

beforeAll(async () => {
  fake = await startSageIntacctFake(company());
  config = { ...world.config, ...fake.configValues };
});

afterAll(async () => {
  await workers.close();
  await fake.close();
});

describe('Sage Intacct sync through the fake XML gateway', () => {
  const tenantId = 51;
  const sellerId = 501;

  beforeAll(async () => {
    await connectSage({ sellerId, tenantId, password: 'Sage-secret-1' });
  });

  it('populates the ledger with readByQuery and readMore, figures equal to the company, through a 503', async () => {
    fake.failNext(1);
    const outcome = await runSync(world, workers, {
      sellerId,
      tenantId,
      mode: 'populate',
      jobId: 5001,
      pageSize: 100,
    });
    expect(outcome).toMatchObject({ ok: true });
    expect(await ledgerFiguresOf(sellerId)).toEqual(figuresOf(fake.company.objects));
    const calls = fake.requests.map((body) => /<content><function[^>]*><(\w+)>/.exec(body)?.[1]);
    // 250 invoices at 100 a page: one readByQuery and two readMore.
    expect(calls.filter((c) => c === 'readMore').length).toBeGreaterThanOrEqual(2);
    expect(fake.requests.every((body) => !body.includes('WHENMODIFIED'))).toBe(true);
    const ledger = await storedLedger(world.db(), sellerId);
    const first = ledger.invoices.find((r) => r.providerId === '1001')!;
    expect(first).toMatchObject({
      docNumber: 'INV-1',
      amount: cents(fake.company.objects.ARINVOICE[0]!.TOTALENTERED!),
    });
    expect(first.dueDate.toISOString()).toBe('2025-07-31T00:00:00.000Z');

    // Lines are the ARINVOICEITEMs: items as products, a line on a GL account only as adjustments.
    const items = fake.company.objects.ARINVOICEITEM!;
    const linesOf = (invoice: string) => items.filter((item) => item.RECORDKEY === invoice);
    expect(first.lines).toEqual([
      { productId: ledgerIdOf('SVC-1'), quantity: 1, amount: cents(linesOf('1001')[0]!.AMOUNT!) },
      {
        productId: ledgerIdOf('ledgerwise:adjustments'),
        quantity: 1,
        amount: cents(linesOf('1001')[1]!.AMOUNT!),
      },
    ]);
    expect(ledger.invoices.find((r) => r.providerId === '1002')!.lines).toEqual([
      { productId: ledgerIdOf('SVC-2'), quantity: 1, amount: cents(linesOf('1002')[0]!.AMOUNT!) },
      { productId: ledgerIdOf('SVC-9'), quantity: 1, amount: cents(linesOf('1002')[1]!.AMOUNT!) },
    ]);
    expect(ledger.products.find((p) => p.providerId === 'SVC-9')).toMatchObject({ name: 'Service SVC-9' });

    // Applications are the ARPYMTDETAILs: cash per invoice on payments, credits on the adjustments.
    const settled = fake.company.objects.ARINVOICE[1]!;
    expect(ledger.payments.find((p) => p.providerId === '5500')).toMatchObject({
      amount: cents(settled.TOTALENTERED!) - 2050,
      applications: [{ invoiceProviderId: '1002', amount: cents(settled.TOTALENTERED!) - 2050 }],
    });
    expect(ledger.creditMemos.find((m) => m.providerId === '7002')).toMatchObject({
      amount: 2050,
      applications: [{ invoiceProviderId: '1002', amount: 2050 }],
    });
    expect(ledger.creditMemos.find((m) => m.providerId === '7001')!.applications).toEqual([]);
    expect(await unappliedDisagreements(sellerId, fake.company.objects)).toEqual([]);
  });

  it('syncs only what changed since the CollectionDate, asking Sage with a WHENMODIFIED query', async () => {
    const { collectionDate } = await sellerState(world, sellerId);
    const since = new Date(collectionDate!);
    const later = sageDateTime(new Date(since.getTime() + 60_000));
    const objects = fake.company.objects;
    const paid = objects.ARINVOICE[0]!;
    paid.TOTALDUE = '0.00';
    paid.WHENMODIFIED = later;
    objects.ARINVOICE.push({
      RECORDNO: '9001',
      RECORDID: 'INV-NEW',
      CUSTOMERID: 'C-0001',
      WHENCREATED: '08/01/2025',
      WHENDUE: '08/31/2025',
      TOTALENTERED: '1234.56',
      TOTALDUE: '1234.56',
      WHENMODIFIED: later,
    });
    objects.ARINVOICEITEM!.push(...invoiceItems(objects.ARINVOICE.at(-1)!, 9001));
    // Invoice 1001 is paid with credit adjustment 7001 (10.50, unchanged itself) and cash.
    const cash = decimal(cents(paid.TOTALENTERED!) - 1050);
    objects.ARPYMT.push({
      RECORDNO: '5999',
      CUSTOMERID: paid.CUSTOMERID!,
      RECEIPTDATE: '08/02/2025',
      WHENCREATED: '08/02/2025',
      TOTALENTERED: cash,
      WHENMODIFIED: later,
    });
    objects.ARPYMTDETAIL!.push(
      { ...cashDetail('5999', '1001', cash), WHENMODIFIED: later },
      { ...creditDetail('5999', '1001', '7001', '10.50'), WHENMODIFIED: later },
    );
    const before = fake.requests.length;
    const outcome = await runSync(world, workers, {
      sellerId,
      tenantId,
      mode: 'sync',
      jobId: 5002,
      pageSize: 100,
    });
    expect(outcome).toMatchObject({ ok: true });
    const asked = fake.requests.slice(before);
    const lists = asked.filter((body) =>
      /<object>(CUSTOMER|ARINVOICE|ARADJUSTMENT|ARPYMT)<\/object>/.test(body),
    );
    expect(lists).toHaveLength(4);
    expect(
      lists.every((body) => body.includes(`WHENMODIFIED &gt;= &apos;${sageDateTime(since)}&apos;`)),
    ).toBe(true);
    // The rest ask for the changed records' lines and details by key.
    expect(
      asked
        .filter((body) => body.includes('<object>ARINVOICEITEM</object>'))
        .map((b) => /<query>([^<]*)</.exec(b)?.[1]),
    ).toEqual(['RECORDKEY IN (1001,9001)']);
    expect(asked.some((body) => body.includes('<readMore>'))).toBe(false);
    expect(await ledgerFiguresOf(sellerId)).toEqual(figuresOf(objects));
    const ledger = await storedLedger(world.db(), sellerId);
    expect(ledger.creditMemos.find((m) => m.providerId === '7001')!.applications).toEqual([
      { invoiceProviderId: '1001', amount: 1050 },
    ]);
    expect(ledger.invoices.find((r) => r.providerId === '9001')!.lines.map((l) => l.amount)).toEqual(
      objects.ARINVOICEITEM!.filter((item) => item.RECORDKEY === '9001').map((item) => cents(item.AMOUNT!)),
    );
    expect(await unappliedDisagreements(sellerId, objects)).toEqual([]);
  });

  it('fails the sync in Sage’s own words when the stored login is refused', async () => {
    await connectSage({ sellerId: 502, tenantId: 52, password: 'changed-since' });
    const outcome = await runSync(world, workers, {
      sellerId: 502,
      tenantId: 52,
      mode: 'populate',
      jobId: 5003,
    });
    expect(outcome).toMatchObject({ ok: false });
    expect(outcome.ok ? '' : outcome.reason).toBe(
      'Sage Intacct refused the sign-in: Sign-in information is incorrect. Please check your request. ' +
        'Check the company, user and password on the Platforms page.',
    );
  });

  it('tries a login with a real call: the platform’s error when wrong, nothing when right', async () => {
    const sender = {
      url: fake.url,
      senderId: config.SAGE_SENDER_ID!,
      senderPassword: config.SAGE_SENDER_PASSWORD!,
    };
    await expect(checkSageLogin(sender, fake.company.login)).resolves.toBeUndefined();
    const refused = await checkSageLogin(sender, { ...fake.company.login, password: 'wrong' }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(SageError);
    expect((refused as SageError).message).toBe(
      'Sign-in information is incorrect. Please check your request.',
    );
    const badSender = await checkSageLogin({ ...sender, senderPassword: 'x' }, fake.company.login).catch(
      (e: unknown) => e,
    );
    expect((badSender as SageError).message).toBe('Incorrect Intacct XML Partner ID or password.');
  });
});
