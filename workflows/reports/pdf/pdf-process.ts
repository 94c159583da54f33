import { documentOf } from './documents/report-documents';
import type { PdfJob } from './pdf-job';
import type { PdfReply, PdfRequest, PdfWarmUp } from './pdf-renderer';
import { warmUpJob } from './pdf-warm-up';
import { peakRssKb } from './peak-rss';
import { loadReactPdf } from './react-pdf';

/**
 * The PDF process: started by pdf-renderer.ts with tsx, it loads @react-pdf/renderer with a native
 * import (ADR 36), then warms up: it renders a made-up weekly report (pdf-warm-up.ts) as many
 * times as its first argument says (pdf-renderer.ts's default) before it takes work, so a user's
 * first report is drawn by compiled code. It then turns each job it is sent into PDF bytes,
 * answering with how long the rendering took (wall clock and CPU), the process's peak memory and
 * what its warm-up cost.
 */
const timed = async (job: PdfJob) => {
  const pdf = await loadReactPdf();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const buffer = await pdf.renderToBuffer(documentOf(job));
  const used = process.cpuUsage(cpu);
  return { buffer, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
};

const reply = (message: PdfReply) => process.send?.(message);

const warmUpRenders = Math.max(0, Number(process.argv[2] ?? 0) || 0);

/** Loading react-pdf and the warm-up renders: the process's time and CPU from its start to ready. */
const warmingUp: Promise<PdfWarmUp> = (async () => {
  await loadReactPdf();
  for (let i = 0; i < warmUpRenders; i += 1) await timed(warmUpJob());
  const used = process.cpuUsage();
  return { renders: warmUpRenders, ms: performance.now(), cpuMs: (used.user + used.system) / 1000 };
})();

warmingUp.then(
  (warmUp) => reply({ ready: warmUp }),
  // A failed warm-up fails no job: each job loads react-pdf again and answers its own error.
  () => reply({ ready: { renders: 0, ms: performance.now(), cpuMs: 0 } }),
);

process.on('message', (request: PdfRequest) => {
  const warmUp = warmingUp.catch(() => ({ renders: 0, ms: 0, cpuMs: 0 }));
  warmUp
    .then(async (ready) => ({ ready, ...(await timed(request.job)) }))
    .then(
      ({ ready, buffer, ms, cpuMs }) =>
        reply({
          id: request.id,
          bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength),
          ms,
          cpuMs,
          maxRssKb: peakRssKb(),
          warmUp: ready,
        }),
      (error: unknown) =>
        reply({
          id: request.id,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        }),
    );
});
// The parent going away (even killed) closes the channel: nothing is left running.
process.on('disconnect', () => process.exit(0));
