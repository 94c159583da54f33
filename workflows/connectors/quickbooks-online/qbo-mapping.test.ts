import { creditMemoApplications, mapQboPaymentSettlements } from './qbo-mapping';

describe('QBO payments that apply credit memos', () => {
  // As QBO records it: invoice lines get what each invoice receives in all, memo lines what each
  // memo gives, TotalAmt the cash (here 60.00 + 45.50 - 30.00 - 50.00 = 25.50).
  const payment = {
    Id: '88',
    TxnDate: '2024-05-02',
    TotalAmt: 25.5,
    CustomerRef: { value: '7' },
    Line: [
      { Amount: 60, LinkedTxn: [{ TxnId: '130', TxnType: 'Invoice' }] },
      { Amount: 45.5, LinkedTxn: [{ TxnId: '131', TxnType: 'Invoice' }] },
      { Amount: 30, LinkedTxn: [{ TxnId: '40', TxnType: 'CreditMemo' }] },
      { Amount: 50, LinkedTxn: [{ TxnId: '41', TxnType: 'CreditMemo' }] },
    ],
  };

  it('gives the credits to the invoices in line order and the cash to what is left', () => {
    const { payment: mapped, credits } = mapQboPaymentSettlements(9, payment);
    expect(credits).toEqual([
      { memoProviderId: '40', invoiceProviderId: '130', amount: 3000 },
      { memoProviderId: '41', invoiceProviderId: '130', amount: 3000 },
      { memoProviderId: '41', invoiceProviderId: '131', amount: 2000 },
    ]);
    expect(mapped).toMatchObject({
      amount: 2550,
      applications: [{ invoiceProviderId: '131', amount: 2550 }],
    });
    // Everything the invoice lines received is accounted for, once.
    const applied = [...credits, ...mapped.applications].reduce((n, a) => n + a.amount, 0);
    expect(applied).toBe(6000 + 4550);
  });

  it('sums a memo’s credits per invoice across payments', () => {
    expect(
      creditMemoApplications([
        { memoProviderId: '41', invoiceProviderId: '131', amount: 2000 },
        { memoProviderId: '41', invoiceProviderId: '130', amount: 3000 },
        { memoProviderId: '41', invoiceProviderId: '131', amount: 500 },
      ]),
    ).toEqual([
      { invoiceProviderId: '130', amount: 3000 },
      { invoiceProviderId: '131', amount: 2500 },
    ]);
  });
});
