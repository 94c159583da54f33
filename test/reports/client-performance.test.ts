import ExcelJS from 'exceljs';
import type { Db } from 'mongodb';
import type { LedgerPage } from '../../contracts/ledger';
import { stopPdfProcess } from '../../workflows/reports/pdf/pdf-renderer';
import { renderClientPerformance } from '../../workflows/reports/pdf/render-client-performance';
import { NoClientsToReportError } from '../../workflows/reports/report-data/client-performance-data';
import { useTestReadStore } from '../harness/test-read-store';
import { ledgerFacts } from './expected-report-figures';
import { flat, readPdf } from './pdf-text';
import {
  demoLedger,
  seedLedgerAndMetrics,
  seedPartner,
  seedSeller,
  seedTenant,
  type TenantSeed,
} from './report-fixtures';

/**
 * The Client Performance Summary of a firm (GET /api/tenants/{id}/reports/client): each client's
 * figures of the last whole month, recomputed here from their ledgers; a sheet from 30 clients.
 */
const readStore = useTestReadStore(__filename);
let db: Db;

const asOf = new Date('2024-06-05T09:00:00.000Z');
const may = { startMs: Date.UTC(2024, 4, 1), endMs: Date.UTC(2024, 4, 31) };
const none = { customerIds: [], productIds: [] };
const firm = { tenantId: 50, partnerId: 5 };
const bigFirm = { tenantId: 60, partnerId: 6 };

const client = async (tenant: TenantSeed, sellerId: number | null) => {
  await seedTenant(db, tenant);
  if (sellerId === null) return null;
  await seedSeller(db, {
    sellerId,
    tenantId: tenant.tenantId,
    companyName: `${tenant.name} Trading`,
    provider: 'XERO',
  });
  const ledger = demoLedger(
    sellerId,
    { seed: sellerId, startDate: '2023-06-01', invoicesPerYear: 240 },
    asOf,
  );
  await seedLedgerAndMetrics(db, { sellerId, tenantId: tenant.tenantId }, ledger, { asOf });
  return ledger;
};

const ledgers = new Map<string, LedgerPage>();
beforeAll(async () => {
  db = readStore.db();
  await seedTenant(db, {
    tenantId: firm.tenantId,
    name: 'Ledger Advisors LLP',
    classification: 'FIRM',
    friendlyName: 'Ledger Advisors',
  });
  await seedPartner(db, { ...firm, name: 'Ledger Advisors' });
  const seeded: [TenantSeed, number | null][] = [
    [{ tenantId: 51, name: 'Bramble Bakery', currency: 'GBP', partnerId: firm.partnerId }, 510],
    [{ tenantId: 52, name: 'Alder Joinery', currency: 'EUR', partnerId: firm.partnerId }, 520],
    // Not covered: no platform, the demo, another firm, a disabled client, another firm's client.
    [{ tenantId: 53, name: 'Cobalt Consulting', partnerId: firm.partnerId }, null],
    [{ tenantId: 54, name: 'Demo Client', usageType: 'DEMO', partnerId: firm.partnerId }, 540],
    [{ tenantId: 55, name: 'Sub Firm', classification: 'FIRM', partnerId: firm.partnerId }, 550],
    [{ tenantId: 56, name: 'Dormant Ltd', status: 'disabled', partnerId: firm.partnerId }, 560],
    [{ tenantId: 57, name: 'Elsewhere Inc', partnerId: 99 }, 570],
  ];
  for (const [tenant, sellerId] of seeded) {
    const ledger = await client(tenant, sellerId);
    if (ledger) ledgers.set(tenant.name, ledger);
  }
}, 180_000);
afterAll(() => stopPdfProcess());

describe("a firm's summary with 2 clients", () => {
  it("prints each covered client's revenue, collections and receivables in its currency", async () => {
    const report = await renderClientPerformance(db, { tenantId: firm.tenantId, asOf, format: 'pdf' });
    expect(report).toMatchObject({
      type: 'CLIENT_PERFORMANCE_REPORT',
      extension: 'pdf',
      contentType: 'application/pdf',
      fileName: 'Ledger Advisors - Client Performance Summary - 2024-06-05.pdf',
    });
    const { text, pages } = await readPdf(report!.bytes);
    expect(pages).toBe(1);
    const body = flat(text);
    expect(body).toContain('Prepared for Ledger Advisors: 2 clients, figures for May 2024');
    const currencies = { 'Bramble Bakery': ['en-GB', 'GBP'], 'Alder Joinery': ['en-IE', 'EUR'] } as const;
    for (const [name, [locale, currency]] of Object.entries(currencies)) {
      const facts = ledgerFacts(ledgers.get(name)!, none);
      const aging = facts.agingAt(may.endMs);
      const money = (cents: number) =>
        new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100);
      expect(body).toContain(name);
      expect(body).toContain(`${name} Trading`);
      for (const figure of [facts.revenueIn(may), facts.collectionsIn(may), aging.open, aging.overdue])
        expect(body).toContain(money(figure));
    }
    for (const left of ['Cobalt Consulting', 'Demo Client', 'Sub Firm', 'Dormant Ltd', 'Elsewhere Inc'])
      expect(body).not.toContain(left);
  }, 60_000);

  it('is a sheet when one is asked for', async () => {
    const report = await renderClientPerformance(db, { tenantId: firm.tenantId, asOf, format: 'xlsx' });
    expect(report?.extension).toBe('xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(report!.bytes) as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Clients')!;
    expect(sheet.getRow(2).getCell(1).value).toBe('Alder Joinery');
    const facts = ledgerFacts(ledgers.get('Alder Joinery')!, none);
    expect(sheet.getRow(2).getCell(5).value).toBe(facts.revenueIn(may) / 100);
    expect(sheet.getRow(2).getCell(5).numFmt).toBe('#,##0.00 "€"');
    expect(sheet.getRow(3).getCell(7).numFmt).toBe('"£"#,##0.00');
  }, 60_000);
});

it('moves the data to a sheet from 30 clients, even when a PDF is asked for', async () => {
  await seedTenant(db, { tenantId: bigFirm.tenantId, name: 'Big Advisors', classification: 'FIRM' });
  await seedPartner(db, { ...bigFirm, name: 'Big Advisors' });
  for (let i = 0; i < 30; i += 1) {
    const tenantId = 1000 + i;
    await seedTenant(db, {
      tenantId,
      name: `Client ${String(i).padStart(2, '0')}`,
      partnerId: bigFirm.partnerId,
    });
    await seedSeller(db, { sellerId: 10_000 + i, tenantId, companyName: `Company ${i}`, provider: 'QBO' });
  }
  const report = await renderClientPerformance(db, { tenantId: bigFirm.tenantId, asOf, format: 'pdf' });
  expect(report).toMatchObject({
    extension: 'xlsx',
    fileName: 'Big Advisors - Client Performance Summary - 2024-06-05.xlsx',
  });
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(report!.bytes) as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('Clients')!;
  expect(sheet.rowCount).toBe(31);
  expect(sheet.autoFilter).toBe('A1:K1');
  expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
}, 60_000);

it('refuses a firm without a covered client, and answers null for an unknown firm', async () => {
  await seedTenant(db, { tenantId: 70, name: 'Empty Advisors', classification: 'FIRM' });
  await expect(renderClientPerformance(db, { tenantId: 70, asOf, format: 'pdf' })).rejects.toBeInstanceOf(
    NoClientsToReportError,
  );
  expect(await renderClientPerformance(db, { tenantId: 999, asOf, format: 'pdf' })).toBeNull();
});
