import {
  createCollectionsForecaster,
  dateOfDay,
  dayOf,
  defaultCollectionsOptions,
  priorStrengthOf,
  type CustomerLedger,
  type InvoiceSettlement,
} from './collections-forecast';

const asOf = new Date('2024-06-30T00:00:00.000Z');
const asOfDay = dayOf(asOf);

/** A customer whose invoices, one every `gap` days before asOf, were each paid `daysToPay` later. */
const steadyCustomer = (
  customerId: number,
  options: { invoices: number; gap: number; daysToPay: number | null; firstDay?: number },
): CustomerLedger => {
  const first = options.firstDay ?? asOfDay - options.invoices * options.gap;
  const invoices = Array.from({ length: options.invoices }, (_, i) => ({
    providerId: `INV-${customerId}-${i}`,
    customerId,
    docNumber: `${customerId}-${i}`,
    transactionDate: dateOfDay(first + i * options.gap),
    dueDate: dateOfDay(first + i * options.gap + 30),
    amount: 10_000,
  }));
  const settlements: InvoiceSettlement[] =
    options.daysToPay === null
      ? []
      : invoices.map((invoice) => ({
          invoiceProviderId: invoice.providerId,
          date: dateOfDay(dayOf(invoice.transactionDate) + (options.daysToPay ?? 0)),
          amount: invoice.amount,
          cash: true,
        }));
  return { customerId, invoices, settlements };
};

const openInvoice = (customerId: number, ageDays: number, amount = 10_000) => ({
  providerId: `OPEN-${customerId}-${ageDays}`,
  customerId,
  docNumber: `open-${customerId}`,
  transactionDate: dateOfDay(asOfDay - ageDays),
  dueDate: dateOfDay(asOfDay - ageDays + 30),
  amount,
});

const forecastOf = (ledgers: CustomerLedger[]) => {
  const forecaster = createCollectionsForecaster(defaultCollectionsOptions(asOf));
  for (const ledger of ledgers) forecaster.addCustomer(ledger);
  return forecaster.finish();
};

describe('the collections forecast', () => {
  it("expects a customer's open invoice to be paid at its habitual days to pay", () => {
    // Settled invoices end before asOf; the open one is 3 days old and the customer pays in 14.
    const prompt = steadyCustomer(1, { invoices: 40, gap: 10, daysToPay: 14, firstDay: asOfDay - 420 });
    const result = forecastOf([{ ...prompt, invoices: [...prompt.invoices, openInvoice(1, 3)] }]);
    const [customer] = result.customers;
    const [invoice] = customer?.invoices ?? [];
    expect(invoice?.expectedPayDay).toBeGreaterThanOrEqual(asOfDay + 10);
    expect(invoice?.expectedPayDay).toBeLessThanOrEqual(asOfDay + 12);
    expect(invoice?.paidWithinHorizon).toBeGreaterThan(0.95);
    // Day 11 after asOf falls in the second week.
    expect(result.weeks[1]?.mean).toBeGreaterThan(9_000);
    expect(result.weeks[0]?.mean).toBeLessThan(1_000);
  });

  it('learns from invoices that stay open how many never pay', () => {
    // 30 invoices paid in 20 days, 30 never (open, censored at their ages), and a new one 10 days old.
    const payer = steadyCustomer(2, { invoices: 30, gap: 12, daysToPay: 20, firstDay: asOfDay - 400 });
    const neverPaid = Array.from({ length: 30 }, (_, i) => openInvoice(2, 60 + i * 12));
    const result = forecastOf([
      { ...payer, invoices: [...payer.invoices, ...neverPaid, openInvoice(2, 10)] },
    ]);
    const invoices = result.customers[0]?.invoices ?? [];
    const young = invoices.find((invoice) => invoice.providerId === 'OPEN-2-10');
    const oldest = invoices.find((invoice) => invoice.providerId === 'OPEN-2-408');
    // Half of those that reached day 20 unpaid were paid that day: an even chance, not a certainty.
    expect(young?.paidWithinHorizon).toBeGreaterThan(0.35);
    expect(young?.paidWithinHorizon).toBeLessThan(0.65);
    expect(oldest?.paidWithinHorizon).toBeLessThan(0.2);
    // The average-days-to-pay baseline puts every overdue one in the first week.
    expect(result.baseline[0]).toBe(30 * 10_000);
    expect(result.weeks[0]?.mean).toBeLessThan(0.2 * 30 * 10_000);
  });

  it("borrows the seller's pool for a customer without a paid invoice", () => {
    const pool = [3, 4, 5, 6].map((id) =>
      steadyCustomer(id, { invoices: 20, gap: 15, daysToPay: 30, firstDay: asOfDay - 400 }),
    );
    const newcomer = { customerId: 9, invoices: [openInvoice(9, 2)], settlements: [] };
    const result = forecastOf([...pool, newcomer]);
    const invoice = result.customers.find((c) => c.customerId === 9)?.invoices[0];
    // The pool pays in 30 days: the newcomer's 2-day-old invoice is expected about 28 days on.
    expect(invoice?.expectedPayDay).toBeGreaterThanOrEqual(asOfDay + 25);
    expect(invoice?.expectedPayDay).toBeLessThanOrEqual(asOfDay + 31);
  });

  it('records the cash that arrived after asOf on the invoices open then, credits left out', () => {
    const ledger = steadyCustomer(1, { invoices: 10, gap: 30, daysToPay: 14, firstDay: asOfDay - 330 });
    const open = openInvoice(1, 5);
    const result = forecastOf([
      {
        ...ledger,
        invoices: [...ledger.invoices, open],
        settlements: [
          ...ledger.settlements,
          { invoiceProviderId: open.providerId, date: dateOfDay(asOfDay + 3), amount: 1_000, cash: false },
          { invoiceProviderId: open.providerId, date: dateOfDay(asOfDay + 9), amount: 9_000, cash: true },
        ],
      },
    ]);
    expect(result.actual[0]).toBe(0);
    expect(result.actual[1]).toBe(9_000);
    expect(result.openBalance).toBe(10_000);
  });

  it('bands each week within zero and the open balance, around the mean', () => {
    const ledgers = [1, 2, 3].map((id) => {
      const ledger = steadyCustomer(id, { invoices: 20, gap: 9, daysToPay: 7 * id, firstDay: asOfDay - 300 });
      return { ...ledger, invoices: [...ledger.invoices, openInvoice(id, 1), openInvoice(id, 10)] };
    });
    const result = forecastOf(ledgers);
    expect(result.weeks).toHaveLength(13);
    for (const week of result.weeks) {
      expect(week.lower95).toBeGreaterThanOrEqual(0);
      expect(week.lower95).toBeLessThanOrEqual(week.lower80);
      expect(week.lower80).toBeLessThanOrEqual(week.mean);
      expect(week.mean).toBeLessThanOrEqual(week.upper80);
      expect(week.upper80).toBeLessThanOrEqual(week.upper95);
      expect(week.upper95).toBeLessThanOrEqual(result.openBalance);
    }
    expect(forecastOf(ledgers)).toEqual(result);
  });
});

describe('priorStrengthOf', () => {
  it('trusts each customer more the more the customers differ', () => {
    const alike = [
      [10, 20, 30],
      [11, 19, 31],
      [9, 21, 29],
    ];
    const different = [
      [5, 6, 7],
      [60, 62, 58],
      [120, 118, 125],
    ];
    expect(priorStrengthOf(alike)).toBe(50);
    expect(priorStrengthOf(different)).toBeLessThan(1);
  });
});
