import { parseXml } from '../qbd/xml';
import { ledgerIdOf } from '../shared/ledger-ids';
import { mapSageAdjustment, mapSageInvoice, mapSagePayment, sageDate, sageDateTime } from './sage-mapping';

describe('Sage Intacct records into the ledger', () => {
  it('reads Sage dates and writes its query literal', () => {
    expect(sageDate('07/31/2025').toISOString()).toBe('2025-07-31T00:00:00.000Z');
    expect(sageDate('07/31/2025 13:05:09').toISOString()).toBe('2025-07-31T13:05:09.000Z');
    expect(() => sageDate('2025-07-31')).toThrow('not a Sage date');
    expect(sageDateTime(new Date('2026-01-02T03:04:05.678Z'))).toBe('01/02/2026 03:04:05');
  });

  it('maps an invoice in base currency as one adjustments line, an adjustment as a positive credit', () => {
    const invoice = mapSageInvoice(
      5,
      parseXml(
        '<arinvoice><RECORDNO>11</RECORDNO><RECORDID>INV-1</RECORDID><CUSTOMERID>C-1</CUSTOMERID>' +
          '<WHENCREATED>07/01/2025</WHENCREATED><TOTALENTERED>1005.50</TOTALENTERED><TOTALDUE>5.50</TOTALDUE></arinvoice>',
      ),
    );
    expect(invoice).toMatchObject({ providerId: '11', docNumber: 'INV-1', amount: 100550, balance: 550 });
    expect(invoice.lines).toHaveLength(1);
    const credit = mapSageAdjustment(
      5,
      parseXml(
        '<aradjustment><RECORDNO>70</RECORDNO><CUSTOMERID>C-1</CUSTOMERID><WHENCREATED>07/20/2025</WHENCREATED>' +
          '<TOTALENTERED>-10.50</TOTALENTERED></aradjustment>',
      ),
    );
    expect(credit.amount).toBe(1050);
    expect(() =>
      mapSageInvoice(
        5,
        parseXml(
          '<arinvoice><RECORDNO>12</RECORDNO><TOTALENTERED>1</TOTALENTERED><WHENCREATED>07/01/2025</WHENCREATED></arinvoice>',
        ),
      ),
    ).toThrow('CUSTOMERID is missing');
  });

  it('takes invoice lines from ARINVOICEITEMs and applications from ARPYMTDETAILs', () => {
    const xml = (text: string) => parseXml(text);
    const invoice = mapSageInvoice(
      5,
      xml(
        '<arinvoice><RECORDNO>11</RECORDNO><CUSTOMERID>C-1</CUSTOMERID><WHENCREATED>07/01/2025</WHENCREATED>' +
          '<TOTALENTERED>110.00</TOTALENTERED><TOTALDUE>0</TOTALDUE></arinvoice>',
      ),
      [
        xml(
          '<arinvoiceitem><RECORDKEY>11</RECORDKEY><ITEMID>SVC</ITEMID><AMOUNT>100.00</AMOUNT></arinvoiceitem>',
        ),
        xml(
          '<arinvoiceitem><RECORDKEY>11</RECORDKEY><ACCOUNTNO>2200</ACCOUNTNO><AMOUNT>10.00</AMOUNT></arinvoiceitem>',
        ),
      ],
    );
    expect(invoice.lines).toEqual([
      { productId: ledgerIdOf('SVC'), quantity: 1, amount: 10000 },
      { productId: ledgerIdOf('ledgerwise:adjustments'), quantity: 1, amount: 1000 },
    ]);
    const details = [
      xml(
        '<arpymtdetail><PAYMENTKEY>9</PAYMENTKEY><RECORDKEY>11</RECORDKEY><PAYMENTAMOUNT>60.00</PAYMENTAMOUNT></arpymtdetail>',
      ),
      xml(
        '<arpymtdetail><PAYMENTKEY>9</PAYMENTKEY><RECORDKEY>12</RECORDKEY><TRX_PAYMENTAMOUNT>5.25</TRX_PAYMENTAMOUNT></arpymtdetail>',
      ),
      xml(
        '<arpymtdetail><PAYMENTKEY>9</PAYMENTKEY><RECORDKEY>11</RECORDKEY><ADJUSTMENTKEY>70</ADJUSTMENTKEY>' +
          '<ADJUSTMENTAMOUNT>-50.00</ADJUSTMENTAMOUNT></arpymtdetail>',
      ),
    ];
    const payment = mapSagePayment(
      5,
      xml(
        '<arpymt><RECORDNO>9</RECORDNO><CUSTOMERID>C-1</CUSTOMERID><WHENCREATED>07/02/2025</WHENCREATED><TOTALENTERED>65.25</TOTALENTERED></arpymt>',
      ),
      details,
    );
    expect(payment.applications).toEqual([
      { invoiceProviderId: '11', amount: 6000 },
      { invoiceProviderId: '12', amount: 525 },
    ]);
    const credit = mapSageAdjustment(
      5,
      xml(
        '<aradjustment><RECORDNO>70</RECORDNO><CUSTOMERID>C-1</CUSTOMERID><WHENCREATED>07/01/2025</WHENCREATED><TOTALENTERED>-50</TOTALENTERED></aradjustment>',
      ),
      details.slice(2),
    );
    expect(credit.applications).toEqual([{ invoiceProviderId: '11', amount: 5000 }]);
  });
});
