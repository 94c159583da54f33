import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { PdfJob } from './pdf-job';

/**
 * Renders PDF jobs in a child process (pdf-process.ts, run with tsx), started on first use and
 * kept for the next ones. Why a process (ADR 36): @react-pdf/renderer loads only through a native
 * import(), which jest cannot run in-process; and a large document's layout memory stays out of
 * the worker that asked for it. While no job is pending the child does not keep its parent alive.
 */
export type PdfRequest = { id: number; job: PdfJob };
/**
 * What the PDF process spent from its start until it took work: loading react-pdf and its warm-up
 * renders (pdf-process.ts), wall clock and CPU.
 */
export type PdfWarmUp = { renders: number; ms: number; cpuMs: number };
export type PdfReply =
  | { id: number; bytes: Uint8Array; ms: number; cpuMs: number; maxRssKb: number; warmUp: PdfWarmUp }
  | { id: number; error: string }
  | { ready: PdfWarmUp };

export type RenderedPdf = {
  bytes: Uint8Array;
  /** Time spent laying out and writing the PDF, in the PDF process: wall clock and CPU. */
  renderMs: number;
  renderCpuMs: number;
  /** The PDF process's peak resident memory so far, kilobytes. */
  processMaxRssKb: number;
  /** What the PDF process spent before it took its first job. */
  processWarmUp: PdfWarmUp;
};

/**
 * How many times a new PDF process renders a made-up weekly report before it takes work (ADR 36):
 * the first renders of a process are several times slower than the next ones (loading and
 * compiling react-pdf's pipeline), and the process lives long, so it pays them at its start.
 */
export const PDF_WARM_UP_RENDERS = 3;
let warmUpRenders = PDF_WARM_UP_RENDERS;

/** Sets the warm-up of the PDF processes started from now on (the benchmark measures a cold one). */
export const configurePdfProcess = (options: { warmUpRenders: number }) => {
  warmUpRenders = Math.max(0, Math.floor(options.warmUpRenders));
};

/** A document taking longer than this is abandoned and its process restarted. */
const RENDER_TIMEOUT_MS = 5 * 60_000;

type Pending = { resolve: (pdf: RenderedPdf) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };

let child: ChildProcess | undefined;
/** The running process's readiness: resolved once it has warmed up. */
let ready: Promise<PdfWarmUp> | undefined;
let nextId = 1;
const pending = new Map<number, Pending>();

const settleAll = (error: Error) => {
  for (const [id, job] of pending) {
    clearTimeout(job.timer);
    job.reject(error);
    pending.delete(id);
  }
};

const idle = () => {
  if (pending.size > 0 || !child) return;
  child.unref();
  child.channel?.unref();
};

const startChild = (): ChildProcess => {
  const started = fork(join(__dirname, 'pdf-process.ts'), [String(warmUpRenders)], {
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let markReady: (warmUp: PdfWarmUp) => void = () => undefined;
  ready = new Promise((resolve) => {
    markReady = resolve;
  });
  started.on('message', (message: PdfReply) => {
    if ('ready' in message) {
      markReady(message.ready);
      return;
    }
    const job = pending.get(message.id);
    if (!job) return;
    pending.delete(message.id);
    clearTimeout(job.timer);
    if ('error' in message) job.reject(new Error(`PDF rendering failed: ${message.error}`));
    else
      job.resolve({
        bytes: new Uint8Array(message.bytes),
        renderMs: message.ms,
        renderCpuMs: message.cpuMs,
        processMaxRssKb: message.maxRssKb,
        processWarmUp: message.warmUp,
      });
    idle();
  });
  started.on('exit', (code, signal) => {
    if (child === started) child = undefined;
    markReady({ renders: 0, ms: 0, cpuMs: 0 });
    settleAll(new Error(`The PDF process stopped (${signal ?? `exit code ${code}`})`));
  });
  started.on('error', (error) => {
    if (child === started) child = undefined;
    markReady({ renders: 0, ms: 0, cpuMs: 0 });
    settleAll(error);
  });
  return started;
};

/** Renders one job to PDF bytes. */
export const renderPdf = (job: PdfJob): Promise<RenderedPdf> =>
  new Promise((resolve, reject) => {
    child ??= startChild();
    child.ref();
    child.channel?.ref();
    const id = nextId++;
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error(`PDF rendering took over ${RENDER_TIMEOUT_MS / 1000} s`));
      child?.kill();
    }, RENDER_TIMEOUT_MS);
    pending.set(id, { resolve, reject, timer });
    child.send({ id, job } satisfies PdfRequest);
  });

/**
 * Starts the PDF process ahead of its first job (a worker's start), answering once it has warmed
 * up; without it, the first job starts the process and waits for its warm-up.
 */
export const startPdfProcess = (): Promise<PdfWarmUp> => {
  child ??= startChild();
  // Kept referenced while it warms up, so a caller awaiting it is not left without a process.
  child.ref();
  child.channel?.ref();
  const starting = ready ?? Promise.resolve({ renders: 0, ms: 0, cpuMs: 0 });
  return starting.finally(idle);
};

/** Stops the PDF process (the next render starts a new one). */
export const stopPdfProcess = async (): Promise<void> => {
  const running = child;
  if (!running) return;
  child = undefined;
  ready = undefined;
  const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
  running.kill();
  await exited;
};
