import { emptyLedgerPage, type LedgerPage } from '../../contracts/ledger';
import type { FetchPageRequest, LedgerConnector } from '../sync/ledger-connector';
import { demoCustomerHistory, type DemoCustomerHistory } from './demo-customer-history';
import { dateOfDay, dayOf } from './demo-dates';
import { customerNameOf } from './demo-names';
import { demoCatalogue, demoProducts } from './demo-products';
import type { DemoProfile } from './demo-profile';

type Window = { sinceDay: number; untilDay: number; sellerId: number };

const inWindow = (day: number, window: Window) => day > window.sinceDay && day <= window.untilDay;

/** Adds what of one customer's history falls in the window, with balances as of the window's end. */
const addCustomer = (page: LedgerPage, history: DemoCustomerHistory, window: Window) => {
  const { customerId } = history;
  const { sellerId } = window;
  if (inWindow(history.joinDay, window)) {
    const name = customerNameOf(customerId);
    page.customers.push({
      sellerId,
      providerId: `CUST-${customerId}`,
      customerId,
      name,
      email: `billing@${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example`,
      createdAt: dateOfDay(history.joinDay),
      habit: history.habit,
    });
  }
  for (const invoice of history.invoices) {
    const invoiceId = `INV-${customerId}-${invoice.index}`;
    const settled = invoice.settlements.filter((s) => s.day <= window.untilDay);
    const changedInWindow = settled.some((s) => inWindow(s.day, window));
    if (inWindow(invoice.day, window) || changedInWindow) {
      page.invoices.push({
        sellerId,
        providerId: invoiceId,
        customerId,
        docNumber: `${1000 + customerId}-${invoice.index}`,
        transactionDate: dateOfDay(invoice.day),
        dueDate: dateOfDay(invoice.dueDay),
        amount: invoice.amount,
        balance: invoice.amount - settled.reduce((sum, s) => sum + s.amount, 0),
        lines: invoice.lines,
      });
    }
    for (const settlement of settled) {
      if (!inWindow(settlement.day, window)) continue;
      const record = {
        sellerId,
        customerId,
        date: dateOfDay(settlement.day),
        amount: settlement.amount,
        applications: [{ invoiceProviderId: invoiceId, amount: settlement.amount }],
      };
      if (settlement.kind === 'payment')
        page.payments.push({
          ...record,
          providerId: `PAY-${customerId}-${invoice.index}-${settlement.index}`,
        });
      else page.creditMemos.push({ ...record, providerId: `CM-${customerId}-${invoice.index}` });
    }
  }
};

const recordCount = (page: LedgerPage) =>
  page.customers.length + page.invoices.length + page.payments.length + page.creditMemos.length;

/**
 * Pages through a DEMO company customer by customer; the cursor is the next customer's id. A page
 * holds whole customers until it reaches the page size, so a customer's records never straddle pages.
 */
export const fetchDemoPage = (profile: DemoProfile, request: FetchPageRequest) => {
  const catalogue = demoCatalogue(profile);
  const window: Window = {
    sellerId: request.sellerId,
    sinceDay: request.since === null ? Number.NEGATIVE_INFINITY : dayOf(request.since),
    untilDay: dayOf(request.until),
  };
  const page = emptyLedgerPage();
  const first = request.cursor === null ? 1 : Number(request.cursor);
  if (first === 1 && request.since === null) page.products = demoProducts(profile, request.sellerId);
  let customerId = first;
  while (customerId <= catalogue.customers && recordCount(page) < request.pageSize) {
    const history = demoCustomerHistory(profile, {
      customerId,
      customers: catalogue.customers,
      prices: catalogue.prices,
      untilDay: window.untilDay,
    });
    addCustomer(page, history, window);
    customerId += 1;
  }
  const finished = customerId > catalogue.customers;
  return {
    page,
    nextCursor: finished ? null : String(customerId),
    done: customerId - 1,
    total: catalogue.customers,
  };
};

export const createDemoConnector = (deps: {
  profileOf: (sellerId: number) => Promise<DemoProfile>;
}): LedgerConnector => ({
  fetchPage: async (request) => fetchDemoPage(await deps.profileOf(request.sellerId), request),
});
