import type { OAuthTokens } from '../shared/oauth-tokens';
import type { QboClient } from './qbo-client';
import { createQboConnector } from './qbo-connector';
import { createStoredIds } from './qbo-id-comparison';
import type { QboQueryResponse } from './qbo-formats';

/**
 * The id comparison alone (docs/adr/0043, QBO): a sync that read invoices by query pages their ids
 * and deletes the stored ones QuickBooks no longer has. Over an in-memory company that answers
 * `SELECT Id ... ORDERBY Id STARTPOSITION n MAXRESULTS m` the way the API does, and whose invoices
 * keep going while the ids are paged: every invoice deleted before the sync is deleted, and no
 * invoice still in QuickBooks ever is, however the deletions shift the pages.
 */

const seeded = (seed: number) => {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
};

const companyOf = (ids: number[]) => {
  const invoices = new Set(ids);
  let beforeIdPage: (count: number) => void = () => undefined;
  let idPages = 0;
  const client: QboClient = {
    query: (_sellerId, statement) => {
      const page = /STARTPOSITION (\d+) MAXRESULTS (\d+)/.exec(statement);
      if (!statement.startsWith('SELECT Id FROM Invoice') || !page)
        // Nothing changed since the last sync: the query reads of the changes are empty.
        return Promise.resolve({ QueryResponse: {} });
      idPages += 1;
      beforeIdPage(idPages);
      const sorted = [...invoices].sort((a, b) => a - b);
      const start = Number(page[1]);
      const slice = sorted.slice(start - 1, start - 1 + Number(page[2]));
      return Promise.resolve({
        QueryResponse: slice.length ? { Invoice: slice.map((id) => ({ Id: String(id), sparse: true })) } : {},
      } as QboQueryResponse);
    },
    cdc: () => Promise.reject(new Error('beyond 30 days: no CDC')),
  };
  return {
    invoices,
    client,
    idPages: () => idPages,
    onIdPage: (hook: (count: number) => void) => (beforeIdPage = hook),
  };
};

/** A ledger holding `stored` invoice ids for seller 1. */
const ledgerOf = (stored: number[]) =>
  ({
    collection: (name: string) => ({
      find: () => ({
        toArray: () =>
          Promise.resolve(name === 'ledger_invoices' ? stored.map((id) => ({ providerId: String(id) })) : []),
      }),
      deleteMany: () => Promise.resolve({ deletedCount: 0 }),
      bulkWrite: () => Promise.resolve({}),
    }),
  }) as never;

const tokens = {
  current: jest.fn(),
  renewAfterRejection: jest.fn(),
  forget: jest.fn(),
} as unknown as OAuthTokens;

/** A sync 40 days after the last one (beyond CDC): every entity by query, invoices then compared. */
const syncDeletions = async (
  company: ReturnType<typeof companyOf>,
  stored: number[],
  { restartEachPage = false } = {},
) => {
  const db = ledgerOf(stored);
  const connectorOf = () =>
    createQboConnector({
      db,
      client: company.client,
      tokens,
      now: () => new Date('2024-06-30T00:00:00Z'),
      warn: () => undefined,
      storedIds: createStoredIds(db),
    });
  let connector = connectorOf();
  const deleted: string[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 2000; guard += 1) {
    // A worker restarted between pages resumes from the cursor, its stored ids read again.
    if (restartEachPage) connector = connectorOf();
    const fetched = await connector.fetchPage({
      sellerId: 1,
      since: new Date('2024-05-21T00:00:00Z'),
      until: new Date(),
      cursor,
      pageSize: 100,
    });
    for (const d of fetched.page.deletions ?? []) {
      expect(d.entity).toBe('invoices');
      deleted.push(d.providerId);
    }
    cursor = fetched.nextCursor;
    if (cursor === null) return deleted.map(Number).sort((a, b) => a - b);
  }
  throw new Error('the comparison never ended');
};

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('QBO id comparison', () => {
  it('deletes exactly the stored invoices QuickBooks no longer has', async () => {
    const company = companyOf(range(1, 2500));
    const gone = [1, 2, 999, 1000, 1001, 1990, 2500];
    for (const id of gone) company.invoices.delete(id);
    // Ids QuickBooks has that the ledger lacks (created since) change nothing.
    company.invoices.add(2600);
    expect(await syncDeletions(company, range(1, 2500))).toEqual(gone);
    expect(company.idPages()).toBe(3);
  });

  it('resumes on a restarted worker from the cursor with the same deletions', async () => {
    const company = companyOf(range(1, 2500));
    const gone = [3, 1500, 2499];
    for (const id of gone) company.invoices.delete(id);
    // Each page on a fresh connector: the stored ids are read again, the cursor carries the rest.
    expect(await syncDeletions(company, range(1, 2500), { restartEachPage: true })).toEqual(gone);
  });

  it('deletes every stored invoice when QuickBooks has none left', async () => {
    expect(await syncDeletions(companyOf([]), [5, 6, 7])).toEqual([5, 6, 7]);
  });

  it.each([1, 2, 3, 4, 5, 6])(
    'never deletes an invoice still there while deletions shift the pages (seed %i)',
    async (seed) => {
      const random = seeded(seed);
      const company = companyOf(range(1, 4000));
      const before = range(1, 4000).filter(() => random() < 0.02);
      for (const id of before) company.invoices.delete(id);
      const during = new Set<number>();
      company.onIdPage(() => {
        // Before each page, a burst of deletions anywhere, sometimes more than the pages overlap.
        const burst = Math.floor(random() * 30);
        for (let n = 0; n < burst; n += 1) {
          const id = 1 + Math.floor(random() * 4000);
          if (company.invoices.delete(id)) during.add(id);
        }
      });
      const deleted = await syncDeletions(company, range(1, 4000));
      expect(before.filter((id) => !deleted.includes(id))).toEqual([]);
      expect(deleted.filter((id) => company.invoices.has(id))).toEqual([]);
      expect(deleted.filter((id) => !before.includes(id) && !during.has(id))).toEqual([]);
    },
  );
});
