import { child, escapeXml, parseXml, type XmlElement } from './xml';

/**
 * The qbXML a QuickBooks Desktop sync asks the Web Connector to run (ADR 44): one query per
 * step, each paged with an iterator (iterator="Start", then "Continue" with the iteratorID QuickBooks
 * answered, MaxReturned records at a time). A sync (not a populate) filters on the modified date
 * (lists: FromModifiedDate/ToModifiedDate; transactions: ModifiedDateRangeFilter) and ends with a
 * TxnDeletedQueryRq for the transactions deleted in the window. Element order follows the qbXML
 * schema, which QuickBooks enforces.
 *
 * The first step, AccountQueryRq for the Accounts Receivable accounts (all of them, every run, no
 * iterator: a company has a handful), tells which journal entry lines are receivables. Classes and
 * estimates are no receivables: their queries are counted and dated for the log viewer only, and ask
 * for no line items.
 */

export const QBXML_VERSION = '13.0';

export const qbdSteps = [
  'Account',
  'Class',
  'Customer',
  'Item',
  'Estimate',
  'Invoice',
  'CreditMemo',
  'ReceivePayment',
  'SalesReceipt',
  'JournalEntry',
  'TxnDeleted',
] as const;
export type QbdStep = (typeof qbdSteps)[number];

const listSteps = new Set<QbdStep>(['Class', 'Customer', 'Item']);
/** Steps that are counted, not written: no line items asked for. */
export const countedSteps = new Set<QbdStep>(['Class', 'Estimate']);
/** Queries whose schema has no OwnerID (custom fields): Class has none, and counted or JE ones need none. */
const withoutOwnerId = new Set<QbdStep>(['Class', 'Estimate', 'JournalEntry']);

/** The transaction types whose deletions the last step asks for. */
export const deletedTxnTypes = [
  'Invoice',
  'CreditMemo',
  'ReceivePayment',
  'SalesReceipt',
  'JournalEntry',
] as const;

/** qbXML DATETIMETYPE with an explicit offset, seconds precision. */
export const qbDateTime = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, '+00:00');

export type QbdQuery = {
  step: QbdStep;
  requestId: number;
  /** Null starts the iterator. */
  iteratorId: string | null;
  maxReturned: number;
  since: Date | null;
  until: Date;
};

const wrap = (body: string) =>
  [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<?qbxml version="${QBXML_VERSION}"?>`,
    '<QBXML>',
    '<QBXMLMsgsRq onError="continueOnError">',
    body,
    '</QBXMLMsgsRq>',
    '</QBXML>',
  ].join('\n');

const el = (name: string, value: string | number) => `<${name}>${escapeXml(String(value))}</${name}>`;

/** The request document of one query. */
export const qbxmlRequest = (query: QbdQuery): string => {
  const { step, requestId, since, until } = query;
  if (step === 'Account')
    return wrap(
      `<AccountQueryRq requestID="${requestId}">${el('ActiveStatus', 'All')}${el(
        'AccountType',
        'AccountsReceivable',
      )}</AccountQueryRq>`,
    );
  if (step === 'TxnDeleted') {
    const types = deletedTxnTypes.map((type) => el('TxnDelType', type)).join('');
    const range = `<DeletedDateRangeFilter>${since ? el('FromDeletedDate', qbDateTime(since)) : ''}${el(
      'ToDeletedDate',
      qbDateTime(until),
    )}</DeletedDateRangeFilter>`;
    return wrap(`<TxnDeletedQueryRq requestID="${requestId}">${types}${range}</TxnDeletedQueryRq>`);
  }
  const iterator =
    query.iteratorId === null
      ? 'iterator="Start"'
      : `iterator="Continue" iteratorID="${escapeXml(query.iteratorId)}"`;
  const parts = [el('MaxReturned', query.maxReturned)];
  if (listSteps.has(step)) {
    parts.push(el('ActiveStatus', 'All'));
    if (since) parts.push(el('FromModifiedDate', qbDateTime(since)), el('ToModifiedDate', qbDateTime(until)));
  } else {
    if (since)
      parts.push(
        `<ModifiedDateRangeFilter>${el('FromModifiedDate', qbDateTime(since))}${el(
          'ToModifiedDate',
          qbDateTime(until),
        )}</ModifiedDateRangeFilter>`,
      );
    if (!countedSteps.has(step)) parts.push(el('IncludeLineItems', 'true'));
    if (step === 'Invoice' || step === 'CreditMemo') parts.push(el('IncludeLinkedTxns', 'true'));
  }
  if (!withoutOwnerId.has(step)) parts.push(el('OwnerID', 0));
  return wrap(`<${step}QueryRq requestID="${requestId}" ${iterator}>${parts.join('')}</${step}QueryRq>`);
};

export type QbdQueryResponse = {
  step: QbdStep;
  requestId: string | null;
  statusCode: number;
  statusSeverity: string;
  statusMessage: string;
  /** Null when QuickBooks answered no iterator (TxnDeleted) or the iterator ended. */
  iteratorId: string | null;
  remaining: number;
  /** The *Ret elements: CustomerRet, ItemServiceRet, InvoiceRet, ... */
  records: XmlElement[];
};

/** statusCode 1: "A query request did not find a matching object": an empty answer, not a failure. */
export const QB_NO_MATCH = 1;

/** Reads the first *QueryRs of a qbXML response document. Throws when there is none. */
export const readQbxmlResponse = (xml: string): QbdQueryResponse => {
  const document = parseXml(xml);
  const messages = child(document, 'QBXMLMsgsRs');
  const rs = messages?.children.find((c) => /QueryRs$/.test(c.local));
  if (!rs) throw new Error('the response holds no query answer');
  const step = rs.local.replace(/QueryRs$/, '') as QbdStep;
  if (!qbdSteps.includes(step)) throw new Error(`an answer to an unexpected query: ${rs.local}`);
  const remaining = Number(rs.attributes.iteratorRemainingCount ?? '0');
  return {
    step,
    requestId: rs.attributes.requestID ?? null,
    statusCode: Number(rs.attributes.statusCode ?? '0'),
    statusSeverity: rs.attributes.statusSeverity ?? 'Info',
    statusMessage: rs.attributes.statusMessage ?? '',
    iteratorId: rs.attributes.iteratorID ?? null,
    remaining: Number.isFinite(remaining) && remaining > 0 ? remaining : 0,
    records: rs.children.filter((c) => /Ret$/.test(c.local)),
  };
};
