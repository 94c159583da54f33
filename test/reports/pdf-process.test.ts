import {
  configurePdfProcess,
  PDF_WARM_UP_RENDERS,
  renderPdf,
  startPdfProcess,
  stopPdfProcess,
} from '../../workflows/reports/pdf/pdf-renderer';
import { warmUpJob } from '../../workflows/reports/pdf/pdf-warm-up';
import { flat, readPdf } from './pdf-text';

/**
 * The PDF process warms up at its start (ADR 36): it renders a made-up weekly report a few times
 * before it takes work. The warm-up must be invisible in what users get: the first job prints its
 * own report, exactly as a process without warm-up prints it.
 */
const job = () => {
  const made = warmUpJob();
  if (made.kind !== 'periodic') throw new Error('expected a weekly report');
  return {
    kind: 'periodic' as const,
    data: {
      ...made.data,
      company: { ...made.data.company, name: 'Firstjob Traders' },
      revenue: { current: 98_765_43, previous: 87_654_32, lastYear: 76_543_21 },
    },
  };
};

afterEach(async () => {
  configurePdfProcess({ warmUpRenders: PDF_WARM_UP_RENDERS });
  await stopPdfProcess();
});

describe('the PDF process', () => {
  it('warms up at its start, then prints the first job as its own report', async () => {
    await stopPdfProcess();
    const warmUp = await startPdfProcess();
    expect(warmUp.renders).toBe(PDF_WARM_UP_RENDERS);
    const rendered = await renderPdf(job());
    expect(rendered.processWarmUp).toEqual(warmUp);
    const { text, pages } = await readPdf(rendered.bytes);
    expect(pages).toBe(3);
    expect(flat(text)).toContain('Firstjob Traders');
    expect(flat(text)).toContain('$98,765.43');
    expect(text).not.toContain('Warm-up Company');
  }, 60_000);

  it('prints the same report with or without warm-up', async () => {
    await stopPdfProcess();
    configurePdfProcess({ warmUpRenders: 0 });
    const cold = await renderPdf(job());
    expect(cold.processWarmUp.renders).toBe(0);
    await stopPdfProcess();
    configurePdfProcess({ warmUpRenders: 2 });
    const warmed = await renderPdf(job());
    expect(warmed.processWarmUp.renders).toBe(2);
    expect((await readPdf(warmed.bytes)).text).toBe((await readPdf(cold.bytes)).text);
  }, 60_000);
});
