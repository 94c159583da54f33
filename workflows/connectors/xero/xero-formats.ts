import { z } from 'zod';

/**
 * The Xero Accounting API's JSON (api.xro/2.0), only the fields the ledger reads. Dates come as
 * Microsoft JSON dates, `/Date(1518685950940+0000)/`; amounts as decimals in the document's currency,
 * with CurrencyRate the units of that currency per unit of the organisation's base currency.
 */

const Amount = z.union([z.number(), z.string()]);
const XeroDate = z.string().min(1);
const ContactRef = z.object({ ContactID: z.string().min(1), Name: z.string().optional() });

export const XeroContact = z.object({
  ContactID: z.string().min(1),
  Name: z.string().optional(),
  EmailAddress: z.string().optional(),
  ContactStatus: z.string().optional(),
  UpdatedDateUTC: XeroDate.optional(),
});

export const XeroItem = z.object({
  ItemID: z.string().min(1),
  Code: z.string().min(1),
  Name: z.string().optional(),
  SalesDetails: z.object({ UnitPrice: Amount.optional() }).optional(),
});

export const XeroLineItem = z.object({
  LineItemID: z.string().optional(),
  ItemCode: z.string().optional(),
  Description: z.string().optional(),
  Quantity: Amount.optional(),
  UnitAmount: Amount.optional(),
  LineAmount: Amount.optional(),
});

export const XeroInvoice = z.object({
  InvoiceID: z.string().min(1),
  InvoiceNumber: z.string().optional(),
  Type: z.string(),
  Status: z.string(),
  Contact: ContactRef,
  Date: XeroDate,
  DueDate: XeroDate.optional(),
  LineAmountTypes: z.string().optional(),
  LineItems: z.array(XeroLineItem).default([]),
  SubTotal: Amount.optional(),
  TotalTax: Amount.optional(),
  Total: Amount,
  AmountDue: Amount,
  CurrencyCode: z.string().optional(),
  CurrencyRate: Amount.optional(),
  UpdatedDateUTC: XeroDate.optional(),
});

export const XeroPayment = z.object({
  PaymentID: z.string().min(1),
  Date: XeroDate,
  Amount,
  CurrencyRate: Amount.optional(),
  PaymentType: z.string().optional(),
  Status: z.string(),
  Invoice: z.object({ InvoiceID: z.string().min(1), Contact: ContactRef.optional() }),
});

export const XeroCreditNote = z.object({
  CreditNoteID: z.string().min(1),
  Type: z.string(),
  Status: z.string(),
  Contact: ContactRef,
  Date: XeroDate,
  Total: Amount,
  CurrencyRate: Amount.optional(),
  Allocations: z.array(z.object({ Amount, Invoice: z.object({ InvoiceID: z.string().min(1) }) })).default([]),
});

/** GET /connections: the organisations the user granted; the seller's is its tenantId. */
export const XeroConnection = z.object({
  id: z.string().optional(),
  tenantId: z.string().min(1),
  tenantType: z.string().optional(),
  tenantName: z.string().nullable().optional(),
});

/** `/Date(1518685950940+0000)/`, or an ISO date as DateString gives it. */
export const xeroDate = (text: string): Date => {
  const ms = /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/.exec(text);
  const date = ms ? new Date(Number(ms[1])) : new Date(/Z|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
  if (Number.isNaN(date.getTime())) throw new Error(`not a date: ${text}`);
  return date;
};

/** The entities a sync reads, in order, with their endpoint, list key and filter. */
export const xeroSteps = [
  { entity: 'Contacts', key: 'Contacts', id: 'ContactID', paged: true, where: null },
  { entity: 'Items', key: 'Items', id: 'ItemID', paged: false, where: null },
  { entity: 'Invoices', key: 'Invoices', id: 'InvoiceID', paged: true, where: 'Type=="ACCREC"' },
  {
    entity: 'Payments',
    key: 'Payments',
    id: 'PaymentID',
    paged: true,
    where: 'PaymentType=="ACCRECPAYMENT"',
  },
  {
    entity: 'CreditNotes',
    key: 'CreditNotes',
    id: 'CreditNoteID',
    paged: true,
    where: 'Type=="ACCRECCREDIT"',
  },
] as const;
export type XeroStep = (typeof xeroSteps)[number];

/** Statuses after which a document no longer counts: its stored row is deleted. */
export const goneStatuses = new Set(['DELETED', 'VOIDED']);
