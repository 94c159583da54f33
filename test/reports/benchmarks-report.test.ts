import type { Db } from 'mongodb';
import type { LedgerPage } from '../../contracts/ledger';
import { NotEnoughPeersError } from '../../workflows/reports/report-data/benchmarks-data';
import { stopPdfProcess } from '../../workflows/reports/pdf/pdf-renderer';
import { renderSellerReport } from '../../workflows/reports/pdf/render-seller-report';
import { useTestReadStore } from '../harness/test-read-store';
import { ledgerFacts } from './expected-report-figures';
import { flat, readPdf } from './pdf-text';
import { demoLedger, seedLedgerAndMetrics, seedSeller, seedTenant, type TenantSeed } from './report-fixtures';

/**
 * The benchmarks report: a company against the anonymised sellers of other companies in its NAICS
 * sector, shown only with at least 5 of them; peer figures recomputed here from their ledgers.
 */
const readStore = useTestReadStore(__filename);
let db: Db;

const asOf = new Date('2024-06-05T09:00:00.000Z');
const may = { startMs: Date.UTC(2024, 4, 1), endMs: Date.UTC(2024, 4, 31) };
const none = { customerIds: [], productIds: [] };
const subject = { tenantId: 20, sellerId: 200 };

/** A company with one seller whose metrics are computed from a generated ledger. */
const company = async (tenant: TenantSeed, sellerId: number, seller: { deleted?: boolean } = {}) => {
  await seedTenant(db, tenant);
  await seedSeller(db, {
    sellerId,
    tenantId: tenant.tenantId,
    companyName: `Peer Company ${sellerId}`,
    ...seller,
  });
  const ledger = demoLedger(
    sellerId,
    { seed: sellerId, startDate: '2023-01-01', invoicesPerYear: 360 },
    asOf,
  );
  await seedLedgerAndMetrics(db, { sellerId, tenantId: tenant.tenantId }, ledger, { asOf });
  return ledger;
};
let ownLedger: LedgerPage;
const peerLedgers: LedgerPage[] = [];
const peer = async (n: number) => {
  peerLedgers.push(
    await company(
      { tenantId: 30 + n, name: `Wholesaler ${n}`, naics: n % 2 === 0 ? '423710' : '424410' },
      300 + n,
    ),
  );
};

beforeAll(async () => {
  db = readStore.db();
  ownLedger = await company(
    { tenantId: subject.tenantId, name: 'Subject Wholesale', naics: '423830' },
    subject.sellerId,
  );
  // None of these is a peer: its own tenant's other seller, another sector, a deleted seller, a
  // disabled company, a company without an industry.
  await seedSeller(db, { sellerId: 201, tenantId: subject.tenantId, companyName: 'Subject Retail' });
  await company({ tenantId: 40, name: 'Consultants', naics: '541611' }, 400);
  await company({ tenantId: 41, name: 'Gone Wholesale', naics: '423710' }, 410, { deleted: true });
  await company({ tenantId: 42, name: 'Disabled Wholesale', naics: '423710', status: 'disabled' }, 420);
  await company({ tenantId: 43, name: 'No Industry', naics: null }, 430);
  for (const n of [1, 2, 3, 4]) await peer(n);
}, 180_000);
afterAll(() => stopPdfProcess());

it('is refused with fewer than 5 peers in the industry', async () => {
  const attempt = renderSellerReport(db, { ...subject, type: 'BENCHMARKS_REPORT', asOf });
  await expect(attempt).rejects.toBeInstanceOf(NotEnoughPeersError);
  await expect(attempt).rejects.toThrow(
    'Not enough peers in this industry to benchmark (at least 5 are needed).',
  );
});

describe('with 6 peers', () => {
  beforeAll(async () => {
    for (const n of [5, 6]) await peer(n);
  }, 120_000);

  /** Type 7 quantiles, two decimals. */
  const quantile = (values: number[], q: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    const position = (sorted.length - 1) * q;
    const low = sorted[Math.floor(position)] ?? 0;
    const high = sorted[Math.ceil(position)] ?? low;
    return Math.round((low + (high - low) * (position - Math.floor(position))) * 100) / 100;
  };
  const daysText = (value: number) =>
    `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(value)} days`;
  const percentText = (value: number) =>
    `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(value)}%`;
  const figuresOf = (ledger: LedgerPage) => {
    const facts = ledgerFacts(ledger, none);
    const aging = facts.agingAt(may.endMs);
    return {
      dso: facts.dsoOf(may) ?? 0,
      overdueShare: Math.round((aging.overdue / aging.open) * 10_000) / 100,
    };
  };

  it("prints the company's DSO and overdue share beside its peers' quartiles, naming no peer", async () => {
    const report = await renderSellerReport(db, { ...subject, type: 'BENCHMARKS_REPORT', asOf });
    const { text, pages } = await readPdf(report.bytes);
    expect(pages).toBe(1);
    const body = flat(text);
    expect(body).toContain('against 6 anonymised companies in Wholesale Trade (NAICS 42)');
    const peers = peerLedgers.map(figuresOf);
    const own = figuresOf(ownLedger);
    const dsoRow = [
      own.dso,
      ...[0.25, 0.5, 0.75].map((q) =>
        quantile(
          peers.map((p) => p.dso),
          q,
        ),
      ),
    ].map(daysText);
    expect(body).toContain(`Days sales outstanding (lower is better) ${dsoRow.join(' ')}`);
    const overdueRow = [
      own.overdueShare,
      ...[0.25, 0.5, 0.75].map((q) =>
        quantile(
          peers.map((p) => p.overdueShare),
          q,
        ),
      ),
    ].map(percentText);
    expect(body).toContain(`Overdue share of receivables (lower is better) ${overdueRow.join(' ')}`);
    const beaten = peers.filter((p) => p.dso > own.dso).length;
    expect(body).toContain(`${Math.round((beaten / 6) * 100)}% of peers`);
    for (const n of [1, 2, 3, 4, 5, 6]) expect(body).not.toContain(`Peer Company ${300 + n}`);
    expect(body).not.toContain('Wholesaler');
  }, 60_000);
});
