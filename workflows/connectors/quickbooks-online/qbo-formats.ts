import { z } from 'zod';

/**
 * The QuickBooks Online Accounting API's JSON (v3, minor version QBO_MINOR_VERSION), only the fields
 * the ledger reads; others pass through unread. Field names as the API spells them.
 */

/** The minor version every call pins, so a change of the API's default never changes our answers. */
export const QBO_MINOR_VERSION = 75;

/** QBO answers at most this many records to one query, and CDC at most this many objects. */
export const QBO_MAX_RESULTS = 1000;

const Ref = z.object({ value: z.string().min(1), name: z.string().optional() });
const Amount = z.union([z.number(), z.string()]);
const MetaData = z.object({ CreateTime: z.string().optional(), LastUpdatedTime: z.string().optional() });

export const QboCustomer = z.object({
  Id: z.string().min(1),
  DisplayName: z.string().optional(),
  CompanyName: z.string().optional(),
  FullyQualifiedName: z.string().optional(),
  PrimaryEmailAddr: z.object({ Address: z.string().optional() }).optional(),
  Active: z.boolean().optional(),
  CurrencyRef: Ref.optional(),
  MetaData: MetaData.optional(),
});
export type QboCustomer = z.infer<typeof QboCustomer>;

export const QboItem = z.object({
  Id: z.string().min(1),
  Name: z.string().min(1),
  UnitPrice: Amount.optional(),
  Active: z.boolean().optional(),
});
export type QboItem = z.infer<typeof QboItem>;

export const QboSalesLine = z.object({
  Id: z.string().optional(),
  Amount: Amount.optional(),
  DetailType: z.string(),
  SalesItemLineDetail: z
    .object({ ItemRef: Ref.optional(), Qty: z.number().optional(), UnitPrice: Amount.optional() })
    .optional(),
});

export const QboInvoice = z.object({
  Id: z.string().min(1),
  DocNumber: z.string().optional(),
  TxnDate: z.string().min(1),
  DueDate: z.string().optional(),
  TotalAmt: Amount,
  Balance: Amount,
  HomeTotalAmt: Amount.optional(),
  HomeBalance: Amount.optional(),
  CustomerRef: Ref,
  CurrencyRef: Ref.optional(),
  ExchangeRate: Amount.optional(),
  PrivateNote: z.string().optional(),
  Line: z.array(QboSalesLine).default([]),
  MetaData: MetaData.optional(),
});
export type QboInvoice = z.infer<typeof QboInvoice>;

const LinkedTxn = z.object({ TxnId: z.string().min(1), TxnType: z.string() });

export const QboPayment = z.object({
  Id: z.string().min(1),
  TxnDate: z.string().min(1),
  TotalAmt: Amount,
  CustomerRef: Ref,
  CurrencyRef: Ref.optional(),
  ExchangeRate: Amount.optional(),
  Line: z.array(z.object({ Amount: Amount, LinkedTxn: z.array(LinkedTxn).default([]) })).default([]),
});
export type QboPayment = z.infer<typeof QboPayment>;

export const QboCreditMemo = z.object({
  Id: z.string().min(1),
  TxnDate: z.string().min(1),
  TotalAmt: Amount,
  CustomerRef: Ref,
  CurrencyRef: Ref.optional(),
  ExchangeRate: Amount.optional(),
});
export type QboCreditMemo = z.infer<typeof QboCreditMemo>;

/** The entities a sync reads, in the order it reads them (customers and items before what cites them). */
export const qboEntities = ['Customer', 'Item', 'Invoice', 'Payment', 'CreditMemo'] as const;
export type QboEntity = (typeof qboEntities)[number];

/** `GET /v3/company/{realmId}/query`: records under their entity's name; none means none left. */
export type QboQueryResponse = {
  QueryResponse: Partial<Record<QboEntity, unknown[]>> & {
    startPosition?: number;
    maxResults?: number;
    totalCount?: number;
  };
  time?: string;
};

/** `GET /v3/company/{realmId}/cdc`: one QueryResponse per entity; deleted objects have status "Deleted". */
export type QboCdcResponse = {
  CDCResponse: { QueryResponse: (Partial<Record<QboEntity, unknown[]>> & { totalCount?: number })[] }[];
  time?: string;
};

/** An object CDC reports deleted: only its id and when. */
export const isDeletedObject = (record: unknown): record is { Id: string; status: 'Deleted' } =>
  typeof record === 'object' &&
  record !== null &&
  (record as { status?: unknown }).status === 'Deleted' &&
  typeof (record as { Id?: unknown }).Id === 'string';

/** `{"Fault":{"Error":[{"Message","Detail","code"}],"type"}}`, the API's error body. */
export const faultText = (body: unknown): string | null => {
  const fault = (body as { Fault?: { Error?: { Message?: string; Detail?: string }[] } } | null)?.Fault;
  const first = fault?.Error?.[0];
  if (!first) return null;
  return [first.Message, first.Detail].filter(Boolean).join(': ') || null;
};
