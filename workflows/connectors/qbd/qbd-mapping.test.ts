import {
  mapQbdInvoice,
  mapQbdItem,
  mapQbdJournalEntry,
  mapQbdPayment,
  mapQbdSalesReceipt,
} from './qbd-mapping';
import { readSoapCall, soapResponse } from './qbd-soap';
import { qbxmlRequest, readQbxmlResponse } from './qbxml';
import { parseXml, textAt } from './xml';

const ret = (xml: string) => parseXml(xml);

describe('the Web Connector SOAP envelope', () => {
  it('reads prefixed, CDATA and escaped parameters and escapes the answer', () => {
    const call = readSoapCall(
      '<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>' +
        '<receiveResponseXML xmlns="http://developer.intuit.com/"><ticket>t-1</ticket>' +
        '<response><![CDATA[<QBXML><a>1 & 2</a></QBXML>]]></response><hresult /><message>R&amp;D</message>' +
        '</receiveResponseXML></s:Body></s:Envelope>',
    );
    expect(call).toEqual({
      method: 'receiveResponseXML',
      params: { ticket: 't-1', response: '<QBXML><a>1 & 2</a></QBXML>', hresult: '', message: 'R&D' },
    });
    expect(soapResponse('sendRequestXML', '<QBXML/>')).toContain(
      '<sendRequestXMLResult>&lt;QBXML/&gt;</sendRequestXMLResult>',
    );
    expect(soapResponse('authenticate', ['', 'nvu'])).toContain(
      '<authenticateResult><string></string><string>nvu</string></authenticateResult>',
    );
    expect(() => readSoapCall('<Envelope><Body><dropTables/></Body></Envelope>')).toThrow('Unknown method');
  });
});

describe('qbXML queries', () => {
  it('orders a sync query as the schema asks and continues an iterator', () => {
    const xml = qbxmlRequest({
      step: 'Invoice',
      requestId: 3,
      iteratorId: '{ABC}',
      maxReturned: 100,
      since: new Date('2026-01-01T00:00:00.000Z'),
      until: new Date('2026-01-02T12:30:00.000Z'),
    });
    expect(xml).toContain(
      '<InvoiceQueryRq requestID="3" iterator="Continue" iteratorID="{ABC}"><MaxReturned>100</MaxReturned>' +
        '<ModifiedDateRangeFilter><FromModifiedDate>2026-01-01T00:00:00+00:00</FromModifiedDate>' +
        '<ToModifiedDate>2026-01-02T12:30:00+00:00</ToModifiedDate></ModifiedDateRangeFilter>' +
        '<IncludeLineItems>true</IncludeLineItems><IncludeLinkedTxns>true</IncludeLinkedTxns><OwnerID>0</OwnerID>',
    );
    const answer = readQbxmlResponse(
      '<QBXML><QBXMLMsgsRs><CustomerQueryRs requestID="1" statusCode="1" statusSeverity="Info" ' +
        'statusMessage="No match" iteratorRemainingCount="0" iteratorID="{X}"/></QBXMLMsgsRs></QBXML>',
    );
    expect(answer).toMatchObject({ step: 'Customer', statusCode: 1, remaining: 0, records: [] });
  });
});

describe('QuickBooks Desktop records into the ledger', () => {
  it('totals an invoice from subtotal and tax in the home currency, group lines included', () => {
    const invoice = mapQbdInvoice(
      7,
      ret(
        '<InvoiceRet><TxnID>1-1</TxnID><CustomerRef><ListID>80-1</ListID></CustomerRef><TxnDate>2026-02-01</TxnDate>' +
          '<RefNumber>INV-9</RefNumber><Subtotal>100.00</Subtotal><SalesTaxTotal>8.25</SalesTaxTotal>' +
          '<BalanceRemaining>108.25</BalanceRemaining><ExchangeRate>1.5</ExchangeRate>' +
          '<InvoiceLineRet><ItemRef><ListID>I-1</ListID></ItemRef><Quantity>2.4</Quantity><Amount>60.00</Amount></InvoiceLineRet>' +
          '<InvoiceLineGroupRet><InvoiceLineRet><ItemRef><ListID>I-2</ListID></ItemRef><Amount>40.00</Amount></InvoiceLineRet></InvoiceLineGroupRet>' +
          '</InvoiceRet>',
      ),
    );
    expect(invoice).toMatchObject({ docNumber: 'INV-9', amount: 16238, balance: 16238 });
    expect(invoice.dueDate.toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(invoice.lines.map((l) => [l.quantity, l.amount])).toEqual([
      [2, 9000],
      [1, 6000],
      [1, 1238],
    ]);
  });

  it('reads an item’s price wherever its type keeps it, a percentage as no price', () => {
    expect(
      mapQbdItem(
        7,
        ret(
          '<ItemInventoryRet><ListID>I-1</ListID><Name>Box</Name><SalesPrice>9.99</SalesPrice></ItemInventoryRet>',
        ),
      ).unitPrice,
    ).toBe(999);
    expect(
      mapQbdItem(
        7,
        ret(
          '<ItemDiscountRet><ListID>I-2</ListID><Name>Off</Name><SalesOrPurchase><Price>10%</Price></SalesOrPurchase></ItemDiscountRet>',
        ),
      ).unitPrice,
    ).toBe(0);
  });

  it('refuses a sales receipt without a customer, so the page skips it', () => {
    expect(() =>
      mapQbdSalesReceipt(
        7,
        ret(
          '<SalesReceiptRet><TxnID>5-1</TxnID><TxnDate>2026-02-01</TxnDate><TotalAmount>5</TotalAmount></SalesReceiptRet>',
        ),
      ),
    ).toThrow('CustomerRef.ListID is missing');
    expect(textAt(ret('<a><b> x </b></a>'), 'b')).toBe('x');
  });

  it('makes journal entry lines on Accounts Receivable with a customer invoices (debit) and credit memos (credit)', () => {
    const entry = ret(
      '<JournalEntryRet><TxnID>77-1</TxnID><TxnDate>2025-07-05</TxnDate><RefNumber>JE-7</RefNumber>' +
        '<JournalDebitLine><AccountRef><ListID>AR</ListID></AccountRef><Amount>100.00</Amount><EntityRef><ListID>C1</ListID></EntityRef></JournalDebitLine>' +
        '<JournalDebitLine><AccountRef><ListID>AR</ListID></AccountRef><Amount>20.50</Amount><EntityRef><ListID>C1</ListID></EntityRef></JournalDebitLine>' +
        '<JournalCreditLine><AccountRef><ListID>AR</ListID></AccountRef><Amount>30.00</Amount><EntityRef><ListID>C2</ListID></EntityRef></JournalCreditLine>' +
        '<JournalCreditLine><AccountRef><ListID>INCOME</ListID></AccountRef><Amount>90.50</Amount><EntityRef><ListID>C1</ListID></EntityRef></JournalCreditLine>' +
        '<JournalDebitLine><AccountRef><ListID>AR</ListID></AccountRef><Amount>5.00</Amount></JournalDebitLine>' +
        '</JournalEntryRet>',
    );
    const { invoices, creditMemos } = mapQbdJournalEntry(3, entry, new Set(['AR']));
    expect(invoices).toEqual([
      expect.objectContaining({ providerId: '77-1:C1', docNumber: 'JE-7', amount: 12050, balance: 12050 }),
    ]);
    expect(creditMemos).toEqual([
      expect.objectContaining({ providerId: '77-1:C2', amount: 3000, applications: [] }),
    ]);
    // Without the receivable accounts known, nothing is a receivable.
    expect(mapQbdJournalEntry(3, entry, new Set())).toEqual({ invoices: [], creditMemos: [] });
    const payment = mapQbdPayment(
      3,
      ret(
        '<ReceivePaymentRet><TxnID>88-1</TxnID><CustomerRef><ListID>C1</ListID></CustomerRef><TxnDate>2025-07-09</TxnDate>' +
          '<TotalAmount>50.00</TotalAmount><AppliedToTxnRet><TxnID>77-1</TxnID><TxnType>JournalEntry</TxnType>' +
          '<PaymentAmount>50.00</PaymentAmount></AppliedToTxnRet></ReceivePaymentRet>',
      ),
    );
    expect(payment.applications).toEqual([{ invoiceProviderId: '77-1:C1', amount: 5000 }]);
  });
});
