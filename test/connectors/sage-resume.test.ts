import { createSageConnector } from '../../workflows/connectors/sage-intacct/sage-connector';
import type { FetchedPage, LedgerConnector } from '../../workflows/sync/ledger-connector';
import {
  SAGE_FAKE_SENDER,
  sageKillCompany,
  startSageIntacctFake,
  type SageIntacctFake,
} from '../fakes/sage-intacct-fake';

/**
 * Sage Intacct's readMore moves its result set on by itself: an attempt that read a page and died
 * before the page was stored (a killed worker) has taken that batch, and the retry, which repeats the
 * same readMore, would get the next one. The connector notices Sage's count of remaining records
 * running ahead of its cursor, or a result set Sage no longer holds, and reads the step again from
 * its start, so every record still reaches the ledger (ADR 43).
 */
let fake: SageIntacctFake;
const company = sageKillCompany(450);

beforeAll(async () => {
  fake = await startSageIntacctFake(company);
});

afterAll(() => fake.close());

const connector = (): LedgerConnector =>
  createSageConnector({
    sender: { url: fake.url, ...SAGE_FAKE_SENDER },
    loginOf: () => Promise.resolve(company.login),
    log: () => undefined,
  });

const fetch = (sage: LedgerConnector, cursor: string | null) =>
  sage.fetchPage({ sellerId: 7, since: null, until: new Date(), cursor, pageSize: 100 });

/** Pages from `cursor` to the end, as the sync stores them: the ids stored, and the last page. */
const storeTheRest = async (sage: LedgerConnector, first: FetchedPage, stored: Set<string>) => {
  let page = first;
  for (;;) {
    for (const row of [...page.page.invoices, ...page.page.payments]) stored.add(row.providerId);
    if (page.nextCursor === null) return page;
    page = await fetch(sage, page.nextCursor);
  }
};

const everyId = new Set([
  ...company.objects.ARINVOICE.map((r) => r.RECORDNO!),
  ...company.objects.ARPYMT.map((r) => r.RECORDNO!),
]);
const records =
  company.objects.CUSTOMER.length + company.objects.ARINVOICE.length + company.objects.ARPYMT.length;

/** The customers' page, then the first page of invoices, stored. */
const startPopulate = async (sage: LedgerConnector, stored: Set<string>) => {
  const customers = await fetch(sage, null);
  const invoices = await fetch(sage, customers.nextCursor);
  expect(invoices.page.invoices).toHaveLength(100);
  for (const row of invoices.page.invoices) stored.add(row.providerId);
  return invoices;
};

describe('Sage Intacct: a retried page after readMore moved on', () => {
  it('a batch taken by an attempt that died is read again, and every record is stored', async () => {
    const sage = connector();
    const stored = new Set<string>();
    const firstInvoices = await startPopulate(sage, stored);
    // The attempt that died: it read invoices 101 to 200 and stored nothing.
    const lost = await fetch(sage, firstInvoices.nextCursor);
    expect(lost.page.invoices).toHaveLength(100);

    const retry = await fetch(sage, firstInvoices.nextCursor);
    const last = await storeTheRest(sage, retry, stored);

    expect([...everyId].filter((id) => !stored.has(id))).toEqual([]);
    expect(stored.size).toBe(everyId.size);
    // Progress counts each record once, the re-read step included.
    expect(last.total).toBe(records);
    expect(last.done).toBe(records);
  });

  it('a result set Sage no longer holds is read again from the step’s start', async () => {
    const sage = connector();
    const stored = new Set<string>();
    const firstInvoices = await startPopulate(sage, stored);
    fake.expireResults();

    const last = await storeTheRest(sage, await fetch(sage, firstInvoices.nextCursor), stored);

    expect(stored.size).toBe(everyId.size);
    expect(last.done).toBe(records);
  });

  it('an undisturbed populate reads every batch once, with no read again', async () => {
    const sage = connector();
    const before = fake.requests.length;
    const stored = new Set<string>();
    const last = await storeTheRest(sage, await fetch(sage, null), stored);
    expect(stored.size).toBe(everyId.size);
    expect(last.done).toBe(records);
    const sent = fake.requests.slice(before);
    const mainQueries = sent.filter((body) =>
      /<readByQuery>\s*<object>(CUSTOMER|ARINVOICE|ARADJUSTMENT|ARPYMT)<\/object>/.test(body),
    );
    // One readByQuery per object, and a readMore per further page: 4 of invoices, 1 of payments.
    expect(mainQueries).toHaveLength(4);
    expect(sent.filter((body) => body.includes('<readMore>'))).toHaveLength(5);
  });
});
