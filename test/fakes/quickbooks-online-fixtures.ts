import { decimal, mix } from './seeded';

/**
 * A QuickBooks Online company in the API's own JSON (v3): customers, items, invoices (item lines,
 * a subtotal line and sales tax), payments linked to invoices, credit memos. Every record is a pure
 * function of its index, so the fake can serve a million invoices without holding them, and a test
 * can materialize a small company and change it.
 */
export type QboCompanyShape = {
  customers: number;
  items: number;
  invoices: number;
  /** Every tenth invoice from this share on is paid: 0.6 pays six in ten. */
  paidShare?: number;
  creditMemos?: number;
  /** Item lines per invoice, at most (a "very large page" uses many). */
  maxLines?: number;
  startDate?: string;
};

type Json = Record<string, unknown>;

const DAY = 86_400_000;
/** QBO writes times with the company's offset. */
const times = new Map<number, string>();
export const qboTime = (ms: number) => {
  const known = times.get(ms);
  if (known) return known;
  const text = `${new Date(ms - 8 * 3600_000).toISOString().slice(0, 19)}-08:00`;
  // Fixtures reuse a few hundred days: a million invoices need not format a million times.
  if (times.size < 100_000) times.set(ms, text);
  return text;
};
const dates = new Map<number, string>();
const qboDate = (ms: number) => {
  let text = dates.get(ms);
  if (!text) dates.set(ms, (text = new Date(ms).toISOString().slice(0, 10)));
  return text;
};

export const qboCustomerAt = (shape: QboCompanyShape, index: number, updatedMs: number): Json => {
  const id = String(index + 1);
  return {
    Id: id,
    SyncToken: '0',
    domain: 'QBO',
    sparse: false,
    DisplayName: `Customer ${id} Ltd`,
    CompanyName: `Customer ${id} Ltd`,
    PrimaryEmailAddr: { Address: `accounts@customer${id}.example` },
    Active: true,
    Balance: 0,
    CurrencyRef: { value: 'USD', name: 'United States Dollar' },
    MetaData: {
      CreateTime: qboTime(Date.parse(shape.startDate ?? '2023-01-01') - DAY),
      LastUpdatedTime: qboTime(updatedMs),
    },
  };
};

export const qboItemAt = (_shape: QboCompanyShape, index: number, updatedMs: number): Json => {
  const id = String(index + 1);
  return {
    Id: id,
    SyncToken: '0',
    Name: `Service ${id}`,
    Type: 'Service',
    Active: true,
    UnitPrice: decimal(1000 + index * 250),
    IncomeAccountRef: { value: '79', name: 'Sales of Product Income' },
    MetaData: { CreateTime: qboTime(updatedMs), LastUpdatedTime: qboTime(updatedMs) },
  };
};

/** Cents of an invoice's lines, its tax and total, as the fixture builds them (tests compare with these). */
export const qboInvoiceFigures = (shape: QboCompanyShape, index: number) => {
  const lines = 1 + Math.floor(mix(index, 1) * (shape.maxLines ?? 3));
  const items = Array.from({ length: lines }, (_, l) => {
    const item = Math.floor(mix(index, l, 2) * shape.items);
    const qty = 1 + Math.floor(mix(index, l, 3) * 4);
    const unit = 1000 + item * 250;
    return { item, qty, unit, amount: qty * unit };
  });
  const subtotal = items.reduce((n, l) => n + l.amount, 0);
  const tax = Math.round(subtotal * 0.0825);
  const total = subtotal + tax;
  const paid = index % 10 < Math.round((shape.paidShare ?? 0.6) * 10);
  return { items, subtotal, tax, total, balance: paid ? 0 : total, paid };
};

export const qboInvoiceAt = (shape: QboCompanyShape, index: number, updatedMs: number): Json => {
  const id = String(index + 1);
  const start = Date.parse(shape.startDate ?? '2023-01-01');
  const txn = start + (index % 540) * DAY;
  const f = qboInvoiceFigures(shape, index);
  const customer = String(1 + ((index * 7) % shape.customers));
  return {
    Id: id,
    SyncToken: '0',
    domain: 'QBO',
    sparse: false,
    DocNumber: String(1000 + index),
    TxnDate: qboDate(txn),
    DueDate: qboDate(txn + 30 * DAY),
    CurrencyRef: { value: 'USD', name: 'United States Dollar' },
    CustomerRef: { value: customer, name: `Customer ${customer} Ltd` },
    Line: [
      ...f.items.map((line, l) => ({
        Id: String(l + 1),
        LineNum: l + 1,
        Amount: decimal(line.amount),
        DetailType: 'SalesItemLineDetail',
        SalesItemLineDetail: {
          ItemRef: { value: String(line.item + 1), name: `Service ${line.item + 1}` },
          UnitPrice: decimal(line.unit),
          Qty: line.qty,
          TaxCodeRef: { value: 'TAX' },
        },
      })),
      { Amount: decimal(f.subtotal), DetailType: 'SubTotalLineDetail', SubTotalLineDetail: {} },
    ],
    TxnTaxDetail: { TotalTax: decimal(f.tax) },
    TotalAmt: decimal(f.total),
    Balance: decimal(f.balance),
    EmailStatus: 'NotSet',
    PrintStatus: 'NeedToPrint',
    MetaData: { CreateTime: qboTime(txn), LastUpdatedTime: qboTime(updatedMs) },
  };
};

/** The invoice index paid by the payment at `index`: six in ten invoices are paid, in order. */
export const paidInvoiceIndex = (shape: QboCompanyShape, index: number) => {
  const perTen = Math.round((shape.paidShare ?? 0.6) * 10);
  return Math.floor(index / perTen) * 10 + (index % perTen);
};

export const qboPaymentCount = (shape: QboCompanyShape) => {
  const perTen = Math.round((shape.paidShare ?? 0.6) * 10);
  return Math.floor(shape.invoices / 10) * perTen + Math.min(perTen, shape.invoices % 10);
};

export const qboPaymentAt = (shape: QboCompanyShape, index: number, updatedMs: number): Json => {
  const invoice = paidInvoiceIndex(shape, index);
  const f = qboInvoiceFigures(shape, invoice);
  const start = Date.parse(shape.startDate ?? '2023-01-01');
  const customer = String(1 + ((invoice * 7) % shape.customers));
  return {
    Id: String(index + 1),
    SyncToken: '0',
    domain: 'QBO',
    TxnDate: qboDate(start + ((invoice % 540) + 20) * DAY),
    TotalAmt: decimal(f.total),
    UnappliedAmt: 0,
    CustomerRef: { value: customer, name: `Customer ${customer} Ltd` },
    CurrencyRef: { value: 'USD', name: 'United States Dollar' },
    Line: [{ Amount: decimal(f.total), LinkedTxn: [{ TxnId: String(invoice + 1), TxnType: 'Invoice' }] }],
    MetaData: { CreateTime: qboTime(updatedMs), LastUpdatedTime: qboTime(updatedMs) },
  };
};

export const qboCreditMemoAt = (shape: QboCompanyShape, index: number, updatedMs: number): Json => {
  const start = Date.parse(shape.startDate ?? '2023-01-01');
  const customer = String(1 + ((index * 3) % shape.customers));
  const amount = 500 + index * 125;
  return {
    Id: String(index + 1),
    SyncToken: '0',
    domain: 'QBO',
    DocNumber: `CM-${index + 1}`,
    TxnDate: qboDate(start + (index % 300) * DAY),
    CustomerRef: { value: customer, name: `Customer ${customer} Ltd` },
    Line: [
      {
        Amount: decimal(amount),
        DetailType: 'SalesItemLineDetail',
        SalesItemLineDetail: {
          ItemRef: { value: '1', name: 'Service 1' },
          Qty: 1,
          UnitPrice: decimal(amount),
        },
      },
    ],
    TotalAmt: decimal(amount),
    Balance: 0,
    RemainingCredit: 0,
    MetaData: { CreateTime: qboTime(updatedMs), LastUpdatedTime: qboTime(updatedMs) },
  };
};

/**
 * A credit memo applied to invoices as QBO records it: a Payment whose lines link the invoices (what
 * each receives in all) and the memos (how much of each is used), TotalAmt being the cash only (0
 * when the credits cover the invoices). Amounts in cents here, decimals in the JSON.
 */
export const qboCreditApplicationPayment = (application: {
  id: string;
  customer: string;
  txnDate: string;
  invoices: { id: string; cents: number }[];
  memos: { id: string; cents: number }[];
  updatedMs?: number;
}): Json => {
  const invoiced = application.invoices.reduce((n, i) => n + i.cents, 0);
  const credited = application.memos.reduce((n, m) => n + m.cents, 0);
  const updated = qboTime(application.updatedMs ?? Date.now());
  return {
    Id: application.id,
    SyncToken: '0',
    domain: 'QBO',
    TxnDate: application.txnDate,
    TotalAmt: decimal(invoiced - credited),
    UnappliedAmt: 0,
    ProcessPayment: false,
    CustomerRef: { value: application.customer, name: `Customer ${application.customer} Ltd` },
    CurrencyRef: { value: 'USD', name: 'United States Dollar' },
    Line: [
      ...application.invoices.map((i) => ({
        Amount: decimal(i.cents),
        LinkedTxn: [{ TxnId: i.id, TxnType: 'Invoice' }],
      })),
      ...application.memos.map((m) => ({
        Amount: decimal(m.cents),
        LinkedTxn: [{ TxnId: m.id, TxnType: 'CreditMemo' }],
      })),
    ],
    MetaData: { CreateTime: updated, LastUpdatedTime: updated },
  };
};

/** One credit memo of `cents` on item 1 for a customer, open (RemainingCredit) until a payment applies it. */
export const qboCreditMemoOf = (memo: {
  id: string;
  customer: string;
  txnDate: string;
  cents: number;
  remainingCents?: number;
}): Json => {
  const updated = qboTime(Date.now());
  return {
    Id: memo.id,
    SyncToken: '0',
    domain: 'QBO',
    DocNumber: `CM-${memo.id}`,
    TxnDate: memo.txnDate,
    CustomerRef: { value: memo.customer, name: `Customer ${memo.customer} Ltd` },
    Line: [
      {
        Amount: decimal(memo.cents),
        DetailType: 'SalesItemLineDetail',
        SalesItemLineDetail: {
          ItemRef: { value: '1', name: 'Service 1' },
          Qty: 1,
          UnitPrice: decimal(memo.cents),
        },
      },
      { Amount: decimal(memo.cents), DetailType: 'SubTotalLineDetail', SubTotalLineDetail: {} },
    ],
    TotalAmt: decimal(memo.cents),
    Balance: decimal(memo.remainingCents ?? 0),
    RemainingCredit: decimal(memo.remainingCents ?? 0),
    MetaData: { CreateTime: updated, LastUpdatedTime: updated },
  };
};
