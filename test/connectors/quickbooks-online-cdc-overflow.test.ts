import { LedgerFeedRecord } from '../../contracts/kafka/ledger-records';
import { useLedgerWorld } from '../workflows/ledger-world';
import {
  materializedCompany,
  startQuickBooksOnlineFake,
  touched,
  type MaterializedCompany,
} from '../fakes/quickbooks-online-fake';
import { connectOAuthSeller, runSync, sumOf, usePlatformFake } from './connector-world';
import { bookFigures, ledgerFigures, outboxLines } from './qbo-ledger-figures';

/**
 * QuickBooks Online's Change Data Capture answers 1,000 objects at most: a seller whose invoices
 * changed more often than that since the last sync is read by query, which lists no deletions. The
 * sync then compares the invoice ids QuickBooks has with the ledger's (docs/adr/0043): exactly the
 * deleted invoices leave the ledger, with their tombstones on the feed; voided ones stay.
 */

jest.setTimeout(240_000);

const world = useLedgerWorld(__filename);
const { fake, workers } = usePlatformFake(world, startQuickBooksOnlineFake, {
  settings: { CONNECTOR_MAX_RETRY_WAIT_SECONDS: 120 },
  prepare: (started) => started.setRateLimit(null),
});

/** The record ids of the tombstones the syncs put on the feed. */
const tombstoneIds = async (sellerId: number) =>
  (await outboxLines(world.db(), sellerId))
    .map((line) => LedgerFeedRecord.parse(JSON.parse(line)))
    .filter((record) => record.deleted)
    .map((record) => record.recordId)
    .sort();

/** Voided invoices stay in the ledger with zero amounts, so the ids compared keep them. */
const figuresOf = (company: MaterializedCompany) => bookFigures(company, { voided: 'keep' });
const storedFigures = (sellerId: number) => ledgerFigures(world.db(), sellerId, { voided: 'keep' });

describe('QuickBooks Online deletions when Change Data Capture overflows', () => {
  const tenantId = 36;
  const sellerId = 361;
  const realmId = '9130355361';
  let company: MaterializedCompany;

  beforeAll(async () => {
    company = materializedCompany(realmId, { customers: 20, items: 4, invoices: 1_300, creditMemos: 3 });
    fake().addCompany(company);
    await connectOAuthSeller(world, {
      sellerId,
      tenantId,
      provider: 'QBO',
      companyName: 'Overflowing Ledgers LLC',
      secret: { ...fake().issueTokens(realmId), expiresIn: '3600', tokenType: 'bearer', accountId: realmId },
    });
    const outcome = await runSync(world, workers, {
      sellerId,
      tenantId,
      mode: 'populate',
      jobId: 3601,
      pageSize: 1000,
    });
    expect(outcome).toMatchObject({ ok: true });
    expect((await storedFigures(sellerId)).invoiceIds).toEqual(figuresOf(company).invoiceIds);
  });

  it('removes exactly the invoices deleted since the last sync, keeps voided ones, and never takes one the paging stepped over for deleted', async () => {
    // QBO's times have whole seconds: changes in the second the populate ended would read as older.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const invoices = company.tables.Invoice;
    // 1,100 invoices change (more than CDC answers), seven are deleted (changed ones and untouched
    // ones, the first and the last among them) and one is voided (QBO keeps it with zero amounts).
    for (let id = 100; id < 1_200; id += 1) {
      const record = invoices.records.get(String(id))!;
      invoices.put(touched(record, { Balance: 0, PrivateNote: `paid on ${id}` }));
    }
    const deleted = ['1', '150', '151', '999', '1000', '1250', '1300'];
    for (const id of deleted) invoices.remove(id);
    invoices.put(touched(invoices.records.get('40')!, { TotalAmt: 0, Balance: 0, PrivateNote: 'Voided' }));
    // While the ids are paged, eleven invoices the first page covered go: positions shift by more
    // than the pages overlap, so the next page starts past ids it must compare.
    const goneMidway = ['10', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20'];
    let idPages = 0;
    fake().beforeAnswer((request) => {
      if (!String(request.query.query).startsWith('SELECT Id FROM Invoice')) return;
      idPages += 1;
      if (idPages === 2) for (const id of goneMidway) invoices.remove(id);
    });
    const requestsBefore = fake().requests.length;

    const outcome = await runSync(world, workers, { sellerId, tenantId, mode: 'sync', jobId: 3602 });
    fake().beforeAnswer(null);
    expect(outcome).toMatchObject({ ok: true });
    const calls = fake().requests.slice(requestsBefore);
    // CDC answered its 1,000 invoices, so the invoices were read by query and their ids compared.
    expect(calls.some((r) => r.path === 'cdc' && r.query.entities === 'Invoice')).toBe(true);
    expect(
      calls.some((r) => /^SELECT \* FROM Invoice WHERE MetaData.LastUpdatedTime >/.test(r.query.query ?? '')),
    ).toBe(true);
    expect(
      calls.filter((r) => String(r.query.query).startsWith('SELECT Id FROM Invoice')).length,
    ).toBeGreaterThan(2);

    // The deleted invoices are gone, the ones removed mid-comparison wait for the next sync (the
    // comparison had passed them), and nothing else went: ids 1001-1011 that the shifted page
    // would have skipped are still there.
    const stored = await storedFigures(sellerId);
    const expected = figuresOf(company);
    expect(stored.invoiceIds).toEqual([...expected.invoiceIds, ...goneMidway].sort());
    expect(await tombstoneIds(sellerId)).toEqual(
      deleted.map((id) => `invoices:${sellerId}:${id}:3601:deleted`).sort(),
    );
    const voided = stored.ledger.invoices.find((r) => r.providerId === '40');
    expect(voided).toMatchObject({ amount: 0, balance: 0 });
    // The 1,100 changes arrived: every invoice's balance is QBO's.
    const midway = goneMidway.map((id) => stored.ledger.invoices.find((r) => r.providerId === id)!);
    expect(stored.open - sumOf(midway, (r) => r.balance)).toBe(expected.open);
    expect(stored.sales - sumOf(midway, (r) => r.amount)).toBe(expected.sales);
    expect(stored.paid).toBe(expected.paid);

    // The next sync is small again: CDC lists the eleven deleted, and the ledger equals the books.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = await runSync(world, workers, { sellerId, tenantId, mode: 'sync', jobId: 3603 });
    expect(again).toMatchObject({ ok: true });
    const after = await storedFigures(sellerId);
    expect(after.invoiceIds).toEqual(expected.invoiceIds);
    expect(after.sales).toBe(expected.sales);
    expect(after.open).toBe(expected.open);
    expect(after.paid).toBe(expected.paid);
    expect(await tombstoneIds(sellerId)).toEqual(
      [...deleted, ...goneMidway].map((id) => `invoices:${sellerId}:${id}:3601:deleted`).sort(),
    );
  });
});
