import { createHash } from 'node:crypto';
import { DeleteBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { ArchivedReportsResponse, FileContent } from '../../contracts/api/reports';
import { ErrorResponse } from '../../contracts/errors';
import { jobStream } from '../../contracts/stream-ids';
import { reportObjectStoreOf } from '../../gateway/routes/reports/report-object-store-of';
import { archivedReportsCollection } from '../../projections/reports/query-reports';
import {
  archiveReport,
  createReportObjectStore,
  recordReportEmailed,
  wasReportEmailed,
  type ReportObjectStore,
} from '../../workflows/reports/archive/report-archive';
import { sellerOf } from './admin-fixtures';
import { companyFor, platformAdmin, signUp } from './fixtures';
import { useGatewayWorld, type World } from './gateway-world';
import { archiveDepsOf, archivedReportOf, renderedReport, reportJobOf } from './report-archive-fixtures';

/**
 * The report archive on the real local S3 server (s3rver, docs/adr/0035-report-archive.md): archiving
 * is idempotent however often a step is retried, the routes give back the exact bytes (as JSON or
 * streamed) to the owning tenant only, and a tenant purge deletes the files.
 */
const world = useGatewayWorld(__filename);

const rawClient = (w: World) =>
  new S3Client({
    endpoint: w.config.S3_ENDPOINT,
    region: w.config.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: w.config.S3_ACCESS_KEY_ID, secretAccessKey: w.config.S3_SECRET_ACCESS_KEY },
  });

/** The keys in this file's bucket under a prefix, asked of S3 directly (not through the adapter). */
const keysUnder = async (w: World, prefix: string): Promise<string[]> => {
  const client = rawClient(w);
  try {
    const page = await client.send(new ListObjectsV2Command({ Bucket: w.config.S3_BUCKET, Prefix: prefix }));
    return (page.Contents ?? []).map((object) => object.Key ?? '');
  } finally {
    client.destroy();
  }
};

// The file's bucket holds some 30 MB: leave the local server's disk as it was.
afterAll(async () => {
  const store = createReportObjectStore(world.config);
  const client = rawClient(world);
  try {
    await store.deletePrefix('tenants/');
    await client.send(new DeleteBucketCommand({ Bucket: world.config.S3_BUCKET }));
  } finally {
    store.close();
    client.destroy();
  }
});

const jobEvents = async (jobId: number, type: string) =>
  (await world.services.writeSide.store.readStream(jobStream(jobId))).filter((e) => e.type === type);

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let admin: ReturnType<typeof platformAdmin> | undefined;
/** The one platform administrator of this file (its address can register once). */
const signedInAdmin = () => (admin ??= platformAdmin(world));

type Company = { owner: Awaited<ReturnType<typeof signUp>>; tenantId: number; sellerId: number };
const companies = new Map<string, Promise<Company>>();
/** A company with one seller, its owner signed in and switched into it (shared: sign-ups are rate limited). */
const company = (name: string): Promise<Company> => {
  let known = companies.get(name);
  if (!known) {
    known = (async () => {
      const owner = await signUp(world, { name: `owner-${name}` });
      const tenantId = await companyFor(world, owner, { name });
      const sellerId = await sellerOf(world, tenantId, { companyName: `${name} Books` });
      return { owner, tenantId, sellerId };
    })();
    companies.set(name, known);
  }
  return known;
};

describe('archiving a report', () => {
  it('stores one object and one row however many times the same job archives the same file', async () => {
    const { tenantId, sellerId } = await company('Alpha');
    const jobId = await reportJobOf(world, tenantId, sellerId);
    const report = renderedReport();
    const deps = archiveDepsOf(world);

    const first = await archiveReport(deps, { tenantId, sellerId, jobId, report });
    // A retried activity, then two concurrent ones (a replayed workflow racing a retry).
    const again = await archiveReport(deps, { tenantId, sellerId, jobId, report: renderedReport() });
    const racing = await Promise.all([
      archiveReport(deps, { tenantId, sellerId, jobId, report }),
      archiveReport(deps, { tenantId, sellerId, jobId, report }),
    ]);
    await world.settle();

    expect(first.objectKey).toBe(`tenants/${tenantId}/jobs/${jobId}/WEEKLY_REPORT-${sellerId}.pdf`);
    for (const answer of [again, ...racing]) expect(answer).toEqual(first);
    expect(await keysUnder(world, `tenants/${tenantId}/jobs/${jobId}/`)).toEqual([first.objectKey]);
    expect(await jobEvents(jobId, 'JobReportArchived')).toHaveLength(1);
    const rows = await (await archivedReportsCollection(world.services.db)).find({ jobId }).toArray();
    expect(rows.map((row) => [row._id, row.size, row.sellerId])).toEqual([
      [first.archivedReportId, report.bytes.byteLength, sellerId],
    ]);
    // The first attempt's bytes are the ones kept: the retry with other bytes stored nothing.
    const stored = await reportObjectStoreOf(world.services).get(first.objectKey);
    const chunks: Buffer[] = [];
    for await (const chunk of stored.body) chunks.push(chunk as Buffer);
    expect(sha(Buffer.concat(chunks))).toBe(sha(report.bytes));
  });

  it('archives once when the step was killed between storing the file and recording it', async () => {
    const { tenantId, sellerId } = await company('Alpha');
    const jobId = await reportJobOf(world, tenantId, sellerId);
    const report = renderedReport({ type: 'CUSTOMER_SHEET', extension: 'xlsx' });
    const real = reportObjectStoreOf(world.services);
    const killedAfterPut: ReportObjectStore = {
      ...real,
      put: async (...args) => {
        await real.put(...args);
        throw new Error('worker killed');
      },
    };
    await expect(
      archiveReport(
        { ...archiveDepsOf(world), objects: killedAfterPut },
        { tenantId, sellerId, jobId, report },
      ),
    ).rejects.toThrow('worker killed');
    expect(await jobEvents(jobId, 'JobReportArchived')).toHaveLength(0);

    const retried = await archiveReport(archiveDepsOf(world), { tenantId, sellerId, jobId, report });
    await world.settle();
    expect(await keysUnder(world, `tenants/${tenantId}/jobs/${jobId}/`)).toEqual([
      `tenants/${tenantId}/jobs/${jobId}/CUSTOMER_SHEET-${sellerId}.xlsx`,
    ]);
    expect(await jobEvents(jobId, 'JobReportArchived')).toHaveLength(1);
    expect(retried.archivedReportId).toBeGreaterThan(0);
  });

  it('keeps the files of other sellers and types of the same job apart', async () => {
    const { tenantId, sellerId } = await company('Alpha');
    const other = await sellerOf(world, tenantId, { companyName: 'Alpha Second Books' });
    const jobId = await reportJobOf(world, tenantId, null);
    const deps = archiveDepsOf(world);
    const ids = await Promise.all([
      archiveReport(deps, { tenantId, sellerId, jobId, report: renderedReport() }),
      archiveReport(deps, { tenantId, sellerId: other, jobId, report: renderedReport() }),
      archiveReport(deps, { tenantId, sellerId, jobId, report: renderedReport({ type: 'CUSTOMER_SHEET' }) }),
    ]);
    expect(new Set(ids.map((id) => id.archivedReportId)).size).toBe(3);
    expect((await keysUnder(world, `tenants/${tenantId}/jobs/${jobId}/`)).sort()).toEqual(
      ids.map((id) => id.objectKey).sort(),
    );
  });

  it("refuses to archive into another tenant's job", async () => {
    const alpha = await company('Alpha');
    const beta = await company('Beta');
    const jobId = await reportJobOf(world, alpha.tenantId, alpha.sellerId);
    await expect(
      archiveReport(archiveDepsOf(world), {
        tenantId: beta.tenantId,
        sellerId: beta.sellerId,
        jobId,
        report: renderedReport(),
      }),
    ).rejects.toMatchObject({ code: 'not_found', userMessage: 'Job not found.' });
    expect(await keysUnder(world, `tenants/${beta.tenantId}/jobs/${jobId}/`)).toEqual([]);
  });
});

describe('recording emailed reports', () => {
  it('records each recipient once and answers whether they were emailed', async () => {
    const { tenantId, sellerId } = await company('Alpha');
    const jobId = await reportJobOf(world, tenantId, sellerId);
    const deps = { writeSide: world.services.writeSide, now: world.clock.now };
    expect(await wasReportEmailed(deps, jobId, 31)).toBe(false);
    const sent = { jobId, recipientId: 31, reportTypes: ['WEEKLY_REPORT' as const], messageId: '<x@local>' };
    await recordReportEmailed(deps, sent);
    await Promise.all([
      recordReportEmailed(deps, sent),
      recordReportEmailed(deps, { ...sent, messageId: '<y@l>' }),
    ]);
    expect(await wasReportEmailed(deps, jobId, 31)).toBe(true);
    expect(await wasReportEmailed(deps, jobId, 32)).toBe(false);
    const events = await jobEvents(jobId, 'JobReportEmailed');
    expect(events.map((e) => (e.data as { messageId: string }).messageId)).toEqual(['<x@local>']);
  });
});

describe('the archive routes', () => {
  it('lists the tenant’s archived reports newest first with the seller’s company name', async () => {
    const { owner, tenantId, sellerId } = await company('Gamma');
    const older = await archivedReportOf(world, { tenantId, sellerId });
    world.clock.advance(60_000);
    const newer = await archivedReportOf(
      world,
      { tenantId, sellerId },
      renderedReport({ type: 'CUSTOMER_SHEET', extension: 'xlsx' }),
    );
    world.clock.reset();
    const response = await owner.browser.get('/api/reports/archived');
    expect(response.statusCode).toBe(200);
    const { rows } = ArchivedReportsResponse.parse(response.json());
    expect(rows.map((row) => row.Id)).toEqual([newer.archivedReportId, older.archivedReportId]);
    expect(rows[0]).toMatchObject({
      Type: 'CUSTOMER_SHEET',
      Extension: 'xlsx',
      DisplayName: 'Weekly Report 2024-06-30',
      Size: newer.report.bytes.byteLength,
      SellerId: sellerId,
      TenantId: tenantId,
      Seller: { CompanyName: 'Gamma Books' },
    });
    const page = ArchivedReportsResponse.parse(
      (await owner.browser.get(`/api/reports/archived?sellerId=${sellerId}&limit=1&offset=1`)).json(),
    );
    expect(page.rows.map((row) => row.Id)).toEqual([older.archivedReportId]);
  });

  it('gives back the exact bytes as JSON content and as a streamed download', async () => {
    const { owner, tenantId, sellerId } = await company('Delta');
    const fileName = 'Délta Books - Weekly Report - 2024-06-30.pdf';
    const { archivedReportId, report } = await archivedReportOf(
      world,
      { tenantId, sellerId },
      renderedReport({ bytes: 3 * 1024 * 1024 + 17, fileName }),
    );

    const content = await owner.browser.get(`/api/reports/archived/${archivedReportId}/content`);
    expect(content.statusCode).toBe(200);
    const file = FileContent.parse(content.json());
    expect({ ...file, data: sha(Buffer.from(file.data, 'base64')) }).toEqual({
      encoding: 'base64',
      data: sha(report.bytes),
      contentType: 'application/pdf',
      fileName,
    });

    const download = await owner.browser.get(`/api/reports/archived/${archivedReportId}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-length']).toBe(String(report.bytes.byteLength));
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="D_lta Books - Weekly Report - 2024-06-30.pdf"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    );
    expect(sha(download.rawPayload)).toBe(sha(report.bytes));
  });

  it('refuses content over 20 MB, pointing to the download, which streams it', async () => {
    const { owner, tenantId, sellerId } = await company('Delta');
    const { archivedReportId, report } = await archivedReportOf(
      world,
      { tenantId, sellerId },
      renderedReport({ bytes: 21 * 1024 * 1024, type: 'CUSTOMER_SHEET', extension: 'xlsx' }),
    );
    const content = await owner.browser.get(`/api/reports/archived/${archivedReportId}/content`);
    expect(content.statusCode).toBe(409);
    expect(ErrorResponse.parse(content.json()).message).toBe(
      'This report is too large to open here (21.0 MB; the limit is 20.0 MB). Download it instead.',
    );
    const download = await owner.browser.get(`/api/reports/archived/${archivedReportId}/download`);
    expect(download.statusCode).toBe(200);
    expect(sha(download.rawPayload)).toBe(sha(report.bytes));
  }, 60_000);

  it("answers another tenant's report as one that does not exist, and lets a platform admin read it", async () => {
    const alpha = await company('Alpha');
    const beta = await company('Beta');
    const { archivedReportId } = await archivedReportOf(world, {
      tenantId: alpha.tenantId,
      sellerId: alpha.sellerId,
    });
    for (const path of ['content', 'download']) {
      for (const id of [archivedReportId, 987_654]) {
        const response = await beta.owner.browser.get(`/api/reports/archived/${id}/${path}`);
        expect([response.statusCode, ErrorResponse.parse(response.json()).message]).toEqual([
          404,
          'Report not found.',
        ]);
      }
    }
    const theirs = ArchivedReportsResponse.parse(
      (await beta.owner.browser.get('/api/reports/archived')).json(),
    );
    expect(theirs.rows.map((row) => row.Id)).not.toContain(archivedReportId);
    const bySeller = await beta.owner.browser.get(`/api/reports/archived?sellerId=${alpha.sellerId}`);
    expect(bySeller.statusCode).toBe(404);

    const admin = await signedInAdmin();
    const adminList = ArchivedReportsResponse.parse(
      (await admin.browser.get(`/api/reports/archived?sellerId=${alpha.sellerId}`)).json(),
    );
    expect(adminList.rows.map((row) => row.Id)).toContain(archivedReportId);
    expect((await admin.browser.get(`/api/reports/archived/${archivedReportId}/content`)).statusCode).toBe(
      200,
    );
  });

  it('lists no live reports until an integration records some', async () => {
    const { owner } = await company('Alpha');
    const response = await owner.browser.get('/api/reports/managed');
    expect([response.statusCode, response.json()]).toEqual([200, { rows: [] }]);
  });
});

describe('a tenant purge', () => {
  it("deletes the tenant's archived files and rows, and no one else's", async () => {
    const epsilon = await company('Epsilon');
    const alpha = await company('Alpha');
    const purged = await archivedReportOf(world, { tenantId: epsilon.tenantId, sellerId: epsilon.sellerId });
    const kept = await archivedReportOf(world, { tenantId: alpha.tenantId, sellerId: alpha.sellerId });
    expect(await keysUnder(world, `tenants/${epsilon.tenantId}/`)).toEqual([purged.objectKey]);

    const admin = await signedInAdmin();
    // Only a disabled tenant can be purged.
    const disabled = await admin.browser.delete(`/api/tenants/${epsilon.tenantId}`);
    expect(disabled.statusCode).toBe(200);
    const response = await admin.browser.delete(`/api/tenants/${epsilon.tenantId}?purge=true`);
    expect([response.statusCode, response.body]).toEqual([200, '{"ok":true}']);
    await world.settle();

    expect(await keysUnder(world, `tenants/${epsilon.tenantId}/`)).toEqual([]);
    const rows = await archivedReportsCollection(world.services.db);
    expect(await rows.countDocuments({ tenantId: epsilon.tenantId })).toBe(0);
    expect(await keysUnder(world, `tenants/${alpha.tenantId}/jobs/${kept.jobId}/`)).toEqual([kept.objectKey]);
    expect(await rows.countDocuments({ _id: kept.archivedReportId })).toBe(1);
  });
});
