import { documentOf } from './documents/report-documents';
import type { PdfJob } from './pdf-job';
import type { PdfReply, PdfRequest } from './pdf-renderer';
import { peakRssKb } from './peak-rss';
import { loadReactPdf } from './react-pdf';

/**
 * The PDF process: started by pdf-renderer.ts with tsx, it loads @react-pdf/renderer with a native
 * import (ADR 36) and turns each job it is sent into PDF bytes, answering with how long the
 * rendering took (wall clock and CPU) and the process's peak memory.
 */
const render = async (job: PdfJob) => {
  const pdf = await loadReactPdf();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const buffer = await pdf.renderToBuffer(documentOf(job));
  const used = process.cpuUsage(cpu);
  return {
    bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength),
    ms: performance.now() - started,
    cpuMs: (used.user + used.system) / 1000,
  };
};

const reply = (message: PdfReply) => process.send?.(message);

process.on('message', (request: PdfRequest) => {
  render(request.job).then(
    ({ bytes, ms, cpuMs }) => reply({ id: request.id, bytes, ms, cpuMs, maxRssKb: peakRssKb() }),
    (error: unknown) =>
      reply({
        id: request.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});
// The parent going away (even killed) closes the channel: nothing is left running.
process.on('disconnect', () => process.exit(0));
