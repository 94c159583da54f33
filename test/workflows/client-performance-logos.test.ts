import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Db } from 'mongodb';
import { GifWriter } from 'omggif';
import { PNG } from 'pngjs';
import { stopPdfProcess } from '../../workflows/reports/pdf/pdf-renderer';
import { renderClientPerformance } from '../../workflows/reports/pdf/render-client-performance';
import { drawableLogo, SVG_LOGO_PIXELS_HIGH } from '../../workflows/reports/report-data/report-logo';
import { useTestReadStore } from '../harness/test-read-store';
import { seedLogo, seedPartner, seedSeller, seedTenant } from '../reports/report-fixtures';

/**
 * GIF and SVG tenant logos in the PDF reports: react-pdf draws PNG and JPEG only, so the report's data
 * carries them converted to PNG (workflows/reports/report-data/report-logo.ts). Read back with
 * poppler's pdfimages, as a reader's PDF viewer would find them; here in the header of the firm's
 * Client Performance Summary, which loads the logo as every report does (report-subject.ts loadLogo).
 */
const readStore = useTestReadStore(__filename);
let db: Db;
const run = promisify(execFile);
const asOf = new Date('2024-06-05T09:00:00.000Z');

/** A GIF of `width` x `height` in one colour (a two-colour palette, as GIFs need a power of two). */
const solidGif = (width: number, height: number, rgb: number): Buffer => {
  const out = Buffer.alloc(1024 + width * height * 2);
  const writer = new GifWriter(out, width, height, { palette: [rgb, 0x000000] });
  writer.addFrame(0, 0, width, height, new Array<number>(width * height).fill(0));
  return out.subarray(0, writer.end());
};

const wideSvg = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 100" width="300" height="100">' +
    '<rect width="300" height="100" fill="#1d4ed8"/><circle cx="50" cy="50" r="40" fill="#facc15"/></svg>',
);

const pngOf = (logo: ReturnType<typeof drawableLogo>) => {
  expect(logo?.contentType).toBe('image/png');
  return PNG.sync.read(Buffer.from(logo!.base64, 'base64'));
};

/** pdfimages -list's rows: the images a PDF holds, with their size in pixels. */
const imagesIn = async (bytes: Uint8Array): Promise<{ width: number; height: number; type: string }[]> => {
  const dir = await mkdtemp(join(tmpdir(), 'report-logo-'));
  try {
    const file = join(dir, 'report.pdf');
    await writeFile(file, bytes);
    const { stdout } = await run('pdfimages', ['-list', file]);
    return stdout
      .split('\n')
      .slice(2)
      .filter((line) => line.trim() !== '')
      .map((line) => line.trim().split(/\s+/))
      .map((cols) => ({ type: cols[2]!, width: Number(cols[3]), height: Number(cols[4]) }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

beforeAll(() => {
  db = readStore.db();
});
afterAll(() => stopPdfProcess());

describe('logos converted for the PDF', () => {
  it("draws a GIF's first frame as a PNG of the same pixels", () => {
    const image = pngOf(drawableLogo('image/gif', solidGif(12, 4, 0xff0000)));
    expect([image.width, image.height]).toEqual([12, 4]);
    expect([...image.data.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
  });

  it(`draws an SVG ${SVG_LOGO_PIXELS_HIGH} px high, keeping its aspect ratio`, () => {
    const image = pngOf(drawableLogo('image/svg+xml', wideSvg));
    expect([image.width, image.height]).toEqual([3 * SVG_LOGO_PIXELS_HIGH, SVG_LOGO_PIXELS_HIGH]);
    // The top-left corner is the rectangle's blue, the middle of the circle its yellow.
    expect([...image.data.subarray(0, 4)]).toEqual([0x1d, 0x4e, 0xd8, 255]);
    const centre = (45 * image.width + 45) * 4;
    expect([...image.data.subarray(centre, centre + 4)]).toEqual([0xfa, 0xcc, 0x15, 255]);
  });

  it('passes PNG and JPEG through, and leaves out a file it cannot read', () => {
    expect(drawableLogo('image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 1]))).toEqual({
      contentType: 'image/jpeg',
      base64: Buffer.from([0xff, 0xd8, 0xff, 1]).toString('base64'),
    });
    expect(drawableLogo('image/gif', Buffer.from('GIF89a broken'))).toBeNull();
    expect(drawableLogo('image/svg+xml', Buffer.from('<svg><not closed'))).toBeNull();
  });
});

describe('a GIF or SVG logo in the PDF report', () => {
  const firmWithLogo = async (tenantId: number, contentType: string, bytes: Buffer) => {
    const logoUrl = await seedLogo(db, tenantId, contentType, bytes);
    await seedTenant(db, { tenantId, name: `Firm ${tenantId}`, classification: 'FIRM', logoUrl });
    await seedPartner(db, { partnerId: tenantId, tenantId, name: `Firm ${tenantId}` });
    await seedTenant(db, { tenantId: tenantId + 1, name: `Client of ${tenantId}`, partnerId: tenantId });
    await seedSeller(db, { sellerId: tenantId * 10, tenantId: tenantId + 1, companyName: 'Client Co' });
    const report = await renderClientPerformance(db, { tenantId, asOf, format: 'pdf' });
    expect(report?.extension).toBe('pdf');
    return imagesIn(report!.bytes);
  };

  it('draws the GIF logo as an image in the header', async () => {
    const images = await firmWithLogo(80, 'image/gif', solidGif(60, 20, 0x0f766e));
    expect(images).toContainEqual(expect.objectContaining({ width: 60, height: 20 }));
  }, 60_000);

  it('draws the SVG logo as an image in the header', async () => {
    const images = await firmWithLogo(90, 'image/svg+xml', wideSvg);
    expect(images).toContainEqual(
      expect.objectContaining({ width: 3 * SVG_LOGO_PIXELS_HIGH, height: SVG_LOGO_PIXELS_HIGH }),
    );
  }, 60_000);

  it('draws no image for a logo it cannot read, the name alone', async () => {
    expect(await firmWithLogo(100, 'image/gif', Buffer.from('GIF89a broken'))).toEqual([]);
  }, 60_000);
});
