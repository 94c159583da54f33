import { child, childrenNamed, escapeXml, parseXml, textAt } from '../../workflows/connectors/qbd/xml';

/**
 * QuickBooks Desktop as the Web Connector drives it, for tests (ADR 44): it answers the qbXML
 * request documents our SOAP service hands out with qbXML response documents in QuickBooks' own
 * shapes (CustomerRet, ItemServiceRet, InvoiceRet with InvoiceLineRet, CreditMemoRet with LinkedTxn,
 * ReceivePaymentRet with AppliedToTxnRet, SalesReceiptRet, JournalEntryRet with JournalDebitLine and
 * JournalCreditLine, ClassRet, EstimateRet, AccountRet filtered by AccountType, TxnDeletedRet),
 * honouring iterators (Start/Continue,
 * iteratorID, iteratorRemainingCount, MaxReturned) and modified-date filters. Records are kept as
 * plain objects; amounts are decimal text as QuickBooks writes them.
 */

export type FakeCustomer = {
  ListID: string;
  Name: string;
  Email?: string;
  TimeCreated: string;
  TimeModified: string;
};
export type FakeItem = { ListID: string; Name: string; Price: string; TimeModified: string };
export type FakeLine = { ItemListID: string; Quantity: string; Amount: string };
export type FakeInvoice = {
  TxnID: string;
  CustomerListID: string;
  RefNumber: string;
  TxnDate: string;
  DueDate: string;
  Subtotal: string;
  SalesTaxTotal: string;
  BalanceRemaining: string;
  ExchangeRate?: string;
  BalanceRemainingInHomeCurrency?: string;
  Lines: FakeLine[];
  TimeModified: string;
};
export type FakeCreditMemo = {
  TxnID: string;
  CustomerListID: string;
  TxnDate: string;
  TotalAmount: string;
  Applied: { TxnID: string; Amount: string }[];
  TimeModified: string;
};
export type FakePayment = {
  TxnID: string;
  CustomerListID: string;
  TxnDate: string;
  TotalAmount: string;
  /** TxnType Invoice unless said (JournalEntry). */
  Applied: { TxnID: string; PaymentAmount: string; TxnType?: string }[];
  TimeModified: string;
};
export type FakeAccount = { ListID: string; FullName: string; AccountType: string; TimeModified: string };
export type FakeClass = { ListID: string; Name: string; TimeModified: string };
export type FakeEstimate = {
  TxnID: string;
  CustomerListID: string;
  TxnDate: string;
  RefNumber: string;
  TotalAmount: string;
  TimeModified: string;
};
export type FakeJournalLine = {
  Side: 'Debit' | 'Credit';
  AccountListID: string;
  Amount: string;
  EntityListID?: string;
};
export type FakeJournalEntry = {
  TxnID: string;
  TxnDate: string;
  RefNumber: string;
  Lines: FakeJournalLine[];
  TimeModified: string;
};
export type FakeSalesReceipt = {
  TxnID: string;
  CustomerListID: string;
  TxnDate: string;
  TotalAmount: string;
  Lines: FakeLine[];
  TimeModified: string;
};
export type FakeDeleted = { TxnDelType: string; TxnID: string; TimeDeleted: string };

export type FakeCompany = {
  customers: FakeCustomer[];
  items: FakeItem[];
  invoices: FakeInvoice[];
  creditMemos: FakeCreditMemo[];
  payments: FakePayment[];
  salesReceipts: FakeSalesReceipt[];
  deleted: FakeDeleted[];
  accounts?: FakeAccount[];
  classes?: FakeClass[];
  estimates?: FakeEstimate[];
  journalEntries?: FakeJournalEntry[];
};

const e = (name: string, value: string | undefined) =>
  value === undefined ? '' : `<${name}>${escapeXml(value)}</${name}>`;
const ref = (name: string, listId: string) => `<${name}><ListID>${escapeXml(listId)}</ListID></${name}>`;

const retOf = {
  Customer: (c: FakeCustomer) =>
    `<CustomerRet>${e('ListID', c.ListID)}${e('TimeCreated', c.TimeCreated)}${e('TimeModified', c.TimeModified)}` +
    `${e('Name', c.Name)}${e('FullName', c.Name)}${e('IsActive', 'true')}${e('Email', c.Email)}</CustomerRet>`,
  Item: (i: FakeItem) =>
    `<ItemServiceRet>${e('ListID', i.ListID)}${e('TimeModified', i.TimeModified)}${e('Name', i.Name)}` +
    `${e('FullName', i.Name)}<SalesOrPurchase>${e('Price', i.Price)}</SalesOrPurchase></ItemServiceRet>`,
  Invoice: (i: FakeInvoice) =>
    `<InvoiceRet>${e('TxnID', i.TxnID)}${e('TimeModified', i.TimeModified)}${ref('CustomerRef', i.CustomerListID)}` +
    `${e('TxnDate', i.TxnDate)}${e('RefNumber', i.RefNumber)}${e('DueDate', i.DueDate)}${e('Subtotal', i.Subtotal)}` +
    `${e('SalesTaxTotal', i.SalesTaxTotal)}${e('BalanceRemaining', i.BalanceRemaining)}${e('ExchangeRate', i.ExchangeRate)}` +
    `${e('BalanceRemainingInHomeCurrency', i.BalanceRemainingInHomeCurrency)}` +
    i.Lines.map(
      (l, n) =>
        `<InvoiceLineRet>${e('TxnLineID', `${i.TxnID}-${n}`)}${ref('ItemRef', l.ItemListID)}` +
        `${e('Quantity', l.Quantity)}${e('Amount', l.Amount)}</InvoiceLineRet>`,
    ).join('') +
    `</InvoiceRet>`,
  CreditMemo: (m: FakeCreditMemo) =>
    `<CreditMemoRet>${e('TxnID', m.TxnID)}${e('TimeModified', m.TimeModified)}${ref('CustomerRef', m.CustomerListID)}` +
    `${e('TxnDate', m.TxnDate)}${e('TotalAmount', m.TotalAmount)}` +
    m.Applied.map(
      (a) =>
        `<LinkedTxn>${e('TxnID', a.TxnID)}${e('TxnType', 'Invoice')}${e('Amount', `-${a.Amount}`)}</LinkedTxn>`,
    ).join('') +
    `</CreditMemoRet>`,
  ReceivePayment: (p: FakePayment) =>
    `<ReceivePaymentRet>${e('TxnID', p.TxnID)}${e('TimeModified', p.TimeModified)}${ref('CustomerRef', p.CustomerListID)}` +
    `${e('TxnDate', p.TxnDate)}${e('TotalAmount', p.TotalAmount)}` +
    p.Applied.map(
      (a) =>
        `<AppliedToTxnRet>${e('TxnID', a.TxnID)}${e('TxnType', a.TxnType ?? 'Invoice')}${e('PaymentAmount', a.PaymentAmount)}</AppliedToTxnRet>`,
    ).join('') +
    `</ReceivePaymentRet>`,
  SalesReceipt: (r: FakeSalesReceipt) =>
    `<SalesReceiptRet>${e('TxnID', r.TxnID)}${e('TimeModified', r.TimeModified)}${ref('CustomerRef', r.CustomerListID)}` +
    `${e('TxnDate', r.TxnDate)}${e('TotalAmount', r.TotalAmount)}` +
    r.Lines.map(
      (l) =>
        `<SalesReceiptLineRet>${ref('ItemRef', l.ItemListID)}${e('Quantity', l.Quantity)}${e('Amount', l.Amount)}</SalesReceiptLineRet>`,
    ).join('') +
    `</SalesReceiptRet>`,
  Class: (c: FakeClass) =>
    `<ClassRet>${e('ListID', c.ListID)}${e('TimeModified', c.TimeModified)}${e('Name', c.Name)}` +
    `${e('FullName', c.Name)}${e('IsActive', 'true')}</ClassRet>`,
  Estimate: (x: FakeEstimate) =>
    `<EstimateRet>${e('TxnID', x.TxnID)}${e('TimeModified', x.TimeModified)}${ref('CustomerRef', x.CustomerListID)}` +
    `${e('TxnDate', x.TxnDate)}${e('RefNumber', x.RefNumber)}${e('TotalAmount', x.TotalAmount)}</EstimateRet>`,
  JournalEntry: (j: FakeJournalEntry) =>
    `<JournalEntryRet>${e('TxnID', j.TxnID)}${e('TimeModified', j.TimeModified)}${e('TxnDate', j.TxnDate)}` +
    `${e('RefNumber', j.RefNumber)}` +
    j.Lines.map(
      (l, n) =>
        `<Journal${l.Side}Line>${e('TxnLineID', `${j.TxnID}-${n}`)}${ref('AccountRef', l.AccountListID)}` +
        `${e('Amount', l.Amount)}${l.EntityListID ? ref('EntityRef', l.EntityListID) : ''}</Journal${l.Side}Line>`,
    ).join('') +
    `</JournalEntryRet>`,
};

type Listed = keyof typeof retOf;
const listOf = (company: FakeCompany, step: Listed): { TimeModified: string }[] =>
  ({
    Customer: company.customers,
    Item: company.items,
    Invoice: company.invoices,
    CreditMemo: company.creditMemos,
    ReceivePayment: company.payments,
    SalesReceipt: company.salesReceipts,
    Class: company.classes ?? [],
    Estimate: company.estimates ?? [],
    JournalEntry: company.journalEntries ?? [],
  })[step];

const response = (body: string) =>
  `<?xml version="1.0" ?>\n<QBXML>\n<QBXMLMsgsRs>\n${body}\n</QBXMLMsgsRs>\n</QBXML>\n`;

export const createQuickBooksDesktopFake = (company: FakeCompany) => {
  const iterators = new Map<string, { step: Listed; matching: unknown[]; offset: number }>();
  let nextIterator = 0;
  const requests: string[] = [];

  /** Answers one qbXML request document as QuickBooks would. */
  const answer = (requestXml: string): string => {
    const document = parseXml(requestXml);
    const rq = child(document, 'QBXMLMsgsRq')?.children[0];
    if (!rq) throw new Error('no request');
    requests.push(requestXml);
    const requestId = rq.attributes.requestID ?? '1';
    const step = rq.local.replace(/QueryRq$/, '');
    if (step === 'Account') {
      // No iterator: every account of the type asked for, at once.
      const type = textAt(rq, 'AccountType');
      const accounts = (company.accounts ?? []).filter((a) => !type || a.AccountType === type);
      const status =
        accounts.length === 0
          ? 'statusCode="1" statusSeverity="Info" statusMessage="No match"'
          : 'statusCode="0" statusSeverity="Info" statusMessage="Status OK"';
      return response(
        `<AccountQueryRs requestID="${requestId}" ${status}>` +
          accounts
            .map(
              (a) =>
                `<AccountRet>${e('ListID', a.ListID)}${e('TimeModified', a.TimeModified)}${e('Name', a.FullName)}` +
                `${e('FullName', a.FullName)}${e('IsActive', 'true')}${e('AccountType', a.AccountType)}</AccountRet>`,
            )
            .join('') +
          `</AccountQueryRs>`,
      );
    }
    if (step === 'TxnDeleted') {
      const types = childrenNamed(rq, 'TxnDelType').map((t) => t.text);
      const from = textAt(rq, 'DeletedDateRangeFilter', 'FromDeletedDate');
      const to = textAt(rq, 'DeletedDateRangeFilter', 'ToDeletedDate');
      const rows = company.deleted.filter(
        (d) =>
          types.includes(d.TxnDelType) &&
          (!from || Date.parse(d.TimeDeleted) >= Date.parse(from)) &&
          (!to || Date.parse(d.TimeDeleted) <= Date.parse(to)),
      );
      const status =
        rows.length === 0
          ? 'statusCode="1" statusSeverity="Info" statusMessage="No match"'
          : 'statusCode="0" statusSeverity="Info" statusMessage="Status OK"';
      return response(
        `<TxnDeletedQueryRs requestID="${requestId}" ${status}>` +
          rows
            .map(
              (d) =>
                `<TxnDeletedRet>${e('TxnDelType', d.TxnDelType)}${e('TxnID', d.TxnID)}${e('TimeDeleted', d.TimeDeleted)}</TxnDeletedRet>`,
            )
            .join('') +
          `</TxnDeletedQueryRs>`,
      );
    }
    if (!(step in retOf)) throw new Error(`unexpected ${rq.local}`);
    const listed = step as Listed;
    const max = Number(textAt(rq, 'MaxReturned') ?? '100000');
    let state;
    if (rq.attributes.iterator === 'Continue') {
      state = iterators.get(rq.attributes.iteratorID ?? '');
      if (!state)
        return response(
          `<${step}QueryRs requestID="${requestId}" statusCode="3170" statusSeverity="Error" statusMessage="There was an error when continuing the iterator: unknown iteratorID." />`,
        );
    } else {
      const from =
        textAt(rq, 'FromModifiedDate') ?? textAt(rq, 'ModifiedDateRangeFilter', 'FromModifiedDate');
      const to = textAt(rq, 'ToModifiedDate') ?? textAt(rq, 'ModifiedDateRangeFilter', 'ToModifiedDate');
      const matching = listOf(company, listed).filter(
        (r) =>
          (!from || Date.parse(r.TimeModified) >= Date.parse(from)) &&
          (!to || Date.parse(r.TimeModified) <= Date.parse(to)),
      );
      state = { step: listed, matching: [...matching], offset: 0 };
    }
    const id =
      rq.attributes.iteratorID ??
      `{${(nextIterator += 1).toString(16).padStart(8, '0').toUpperCase()}-FAKE-ITER}`;
    iterators.set(id, state);
    const page = state.matching.slice(state.offset, state.offset + max);
    state.offset += page.length;
    const remaining = state.matching.length - state.offset;
    const status =
      page.length === 0
        ? 'statusCode="1" statusSeverity="Info" statusMessage="A query request did not find a matching object in QuickBooks"'
        : 'statusCode="0" statusSeverity="Info" statusMessage="Status OK"';
    const render = retOf[listed] as (record: unknown) => string;
    return response(
      `<${step}QueryRs requestID="${requestId}" ${status} iteratorRemainingCount="${remaining}" iteratorID="${id}">` +
        page.map(render).join('') +
        `</${step}QueryRs>`,
    );
  };

  return { answer, requests, company };
};
