import type { LedgerPage } from '../../../contracts/ledger';
import type { OAuthTokens } from '../shared/oauth-tokens';
import type { QboClient } from './qbo-client';
import { createQboConnector } from './qbo-connector';
import type { QboEntity, QboQueryResponse } from './qbo-formats';

/**
 * The populate paging alone, over an in-memory company that answers QBO's query statements the way
 * the API does (ORDERBY Id, STARTPOSITION, MAXRESULTS): records deleted between pages must never make
 * the paging skip one that is still there, however many go.
 */
const invoice = (id: number) => ({
  Id: String(id),
  DocNumber: String(1000 + id),
  TxnDate: '2024-01-15',
  TotalAmt: 10,
  Balance: 10,
  CustomerRef: { value: '1' },
  Line: [],
});

const companyOf = (ids: number[]) => {
  const records = new Map<QboEntity, Map<number, unknown>>([
    ['Invoice', new Map(ids.map((id) => [id, invoice(id)]))],
  ]);
  const pages: string[] = [];
  let beforePage: (count: number) => void = () => undefined;
  const client: QboClient = {
    query: async (_sellerId, statement) => {
      const match = /FROM (\w+).*?(?:STARTPOSITION (\d+) MAXRESULTS (\d+))?$/.exec(statement);
      const entity = match?.[1] as QboEntity;
      const table = [...(records.get(entity)?.entries() ?? [])].sort(([a], [b]) => a - b).map(([, r]) => r);
      if (statement.startsWith('SELECT COUNT(*)')) return { QueryResponse: { totalCount: table.length } };
      pages.push(statement);
      beforePage(pages.length);
      const fresh = [...(records.get(entity)?.entries() ?? [])].sort(([a], [b]) => a - b).map(([, r]) => r);
      const start = Number(match?.[2]);
      const slice = fresh.slice(start - 1, start - 1 + Number(match?.[3]));
      return Promise.resolve({ QueryResponse: slice.length ? { [entity]: slice } : {} } as QboQueryResponse);
    },
    cdc: () => Promise.reject(new Error('not in a populate')),
  };
  return { records, client, pages, onPage: (hook: (count: number) => void) => (beforePage = hook) };
};

const tokens = {
  current: jest.fn(),
  renewAfterRejection: jest.fn(),
  forget: jest.fn(),
} as unknown as OAuthTokens;

const emptyStore = {
  collection: () => ({
    deleteMany: () => Promise.resolve({ deletedCount: 0 }),
    find: () => ({ toArray: () => Promise.resolve([]) }),
    bulkWrite: () => Promise.resolve({}),
  }),
} as never;

const populate = async (company: ReturnType<typeof companyOf>, pageSize: number) => {
  const connector = createQboConnector({
    // Paging reads no stored rows; the credit memo applications' store is empty here.
    db: emptyStore,
    client: company.client,
    tokens,
    now: () => new Date('2024-06-30T00:00:00Z'),
    warn: () => undefined,
  });
  const written: LedgerPage['invoices'] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 1000; guard += 1) {
    const fetched = await connector.fetchPage({
      sellerId: 1,
      since: null,
      until: new Date(),
      cursor,
      pageSize,
    });
    written.push(...fetched.page.invoices);
    cursor = fetched.nextCursor;
    if (cursor === null) return written;
  }
  throw new Error('the paging never ended');
};

describe('QBO populate paging', () => {
  it('reads every record once when nothing changes', async () => {
    const company = companyOf(Array.from({ length: 250 }, (_, i) => i + 1));
    const written = await populate(company, 40);
    expect(written.map((r) => Number(r.providerId))).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
  });

  it('skips nothing still there when more records go between two pages than the overlap covers', async () => {
    const company = companyOf(Array.from({ length: 300 }, (_, i) => i + 1));
    company.onPage((count) => {
      // Before the third page: 25 records of the first two pages go.
      if (count === 3) for (let id = 30; id < 55; id += 1) company.records.get('Invoice')!.delete(id);
    });
    const written = await populate(company, 40);
    const ids = written.map((r) => Number(r.providerId));
    expect(new Set(ids).size).toBe(ids.length);
    const remaining = [...company.records.get('Invoice')!.keys()];
    expect(remaining.filter((id) => !ids.includes(id))).toEqual([]);
    // It backed up rather than guessing.
    const starts = company.pages.map((statement) => Number(/STARTPOSITION (\d+)/.exec(statement)?.[1]));
    expect(starts.some((start, i) => i > 0 && start < starts[i - 1]!)).toBe(true);
  });
});
