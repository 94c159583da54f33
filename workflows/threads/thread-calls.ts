import { parentPort, type TransferListItem, type Worker } from 'node:worker_threads';
import { pendingReplies, startTypeScriptThread } from './request-thread';

/**
 * Calls answered by a worker thread, each on its own (docs/adr/0058): the report archive's uploads
 * and the report mailer's messages leave the worker's main thread this way. A thread that fails,
 * exits or does not answer a call in time fails its calls with ThreadUnavailableError, which tells
 * the caller to do the work itself on its own thread (nothing is lost); the next call starts a new
 * thread. An error the thread's work threw comes back as a ThreadCallError with its name and message.
 */
export class ThreadUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ThreadUnavailableError';
  }
}

/** An error thrown by the work inside the thread: its name and message as the thread saw them. */
export class ThreadCallError extends Error {
  constructor(
    readonly threadErrorName: string,
    message: string,
  ) {
    super(message);
    this.name = 'ThreadCallError';
  }
}

type CallMessage<Request> = { id: number; request: Request };
type ReplyMessage<Answer> =
  { id: number; answer: Answer } | { id: number; error: { name: string; message: string } };

export type ThreadCalls<Request, Answer> = {
  /** Rejects with ThreadUnavailableError when the thread could not answer (the caller's cue to do it itself). */
  call: (request: Request, transfer?: readonly TransferListItem[]) => Promise<Answer>;
  /**
   * Starts the thread now if none runs (its modules load before the first call needs them); an idle
   * thread does not keep the process alive.
   */
  warm: () => void;
  /** Ends the thread (calls in flight fail with ThreadUnavailableError). */
  close: () => Promise<void>;
};

export const threadCalls = <Request, Answer>(options: {
  /** The TypeScript file the thread runs; it calls serveThreadCalls. */
  file: string;
  workerData?: unknown;
  /** Named in the errors. */
  name: string;
  /** A call not answered in this time ends the thread: it is taken as stuck. */
  timeoutMs: number;
}): ThreadCalls<Request, Answer> => {
  let current: { thread: Worker; pending: ReturnType<typeof pendingReplies<Answer>> } | null = null;
  const start = () => {
    const thread = startTypeScriptThread(options.file, options.workerData);
    const pending = pendingReplies<Answer>();
    const started = { thread, pending };
    const stop = (reason: string) => {
      if (current === started) current = null;
      pending.failAll(new ThreadUnavailableError(`The ${options.name} thread ${reason}.`));
    };
    thread.on('message', (reply: ReplyMessage<Answer>) => {
      if ('error' in reply)
        pending.fail(reply.id, new ThreadCallError(reply.error.name, reply.error.message));
      else pending.answer(reply.id, reply.answer);
      // An idle thread does not keep the process alive.
      if (pending.size === 0) thread.unref();
    });
    thread.on('error', (error) => stop(`failed: ${error.message}`));
    thread.on('exit', (code) => stop(`stopped (exit code ${code})`));
    return started;
  };
  return {
    call: (request, transfer) =>
      new Promise<Answer>((resolve, reject) => {
        current ??= start();
        const { thread, pending } = current;
        // The timer is set just below, before any answer can come (answers come on later turns).
        const id = pending.add(
          (answer) => {
            clearTimeout(timer);
            resolve(answer);
          },
          (error) => {
            clearTimeout(timer);
            reject(error);
          },
        );
        const timer = setTimeout(() => {
          if (!pending.has(id)) return;
          // Stuck: a new thread takes the next calls, and this one's calls go back to their callers.
          if (current?.thread === thread) current = null;
          pending.failAll(
            new ThreadUnavailableError(
              `The ${options.name} thread did not answer in ${options.timeoutMs} ms.`,
            ),
          );
          void thread.terminate();
        }, options.timeoutMs);
        timer.unref();
        thread.ref();
        try {
          thread.postMessage({ id, request } satisfies CallMessage<Request>, transfer);
        } catch (error) {
          pending.fail(
            id,
            new ThreadUnavailableError(`The ${options.name} thread took no call: ${String(error)}`),
          );
        }
      }),
    warm: () => {
      if (current) return;
      current = start();
      current.thread.unref();
    },
    close: async () => {
      const stopping = current;
      current = null;
      if (stopping) await stopping.thread.terminate();
    },
  };
};

/** Threads started by sharedThreadCalls in this process, by file and workerData. */
const sharedThreads = new Map<string, ThreadCalls<never, unknown>>();

/**
 * threadCalls, one thread per file and workerData in this process: stores and mailers made alike
 * (the same bucket, the same transport) share a thread, which loads its SDK once.
 */
export const sharedThreadCalls = <Request, Answer>(
  options: Parameters<typeof threadCalls>[0],
): ThreadCalls<Request, Answer> => {
  const key = JSON.stringify([options.file, options.workerData]);
  let calls = sharedThreads.get(key) as ThreadCalls<Request, Answer> | undefined;
  if (!calls) {
    calls = threadCalls<Request, Answer>(options);
    sharedThreads.set(key, calls);
  }
  return calls;
};

/**
 * The thread's side of threadCalls: answers each call with what `handle` returns, or its error's name
 * and message; calls run side by side (each handler awaits its own I/O).
 */
export const serveThreadCalls = <Request, Answer>(
  handle: (request: Request) => Promise<Answer>,
  transferOf?: (answer: Answer) => readonly TransferListItem[],
): void => {
  const port = parentPort;
  if (!port) throw new Error('serveThreadCalls runs in a worker thread only');
  port.on('message', ({ id, request }: CallMessage<Request>) => {
    handle(request).then(
      (answer) => port.postMessage({ id, answer } satisfies ReplyMessage<Answer>, transferOf?.(answer)),
      (error: unknown) =>
        port.postMessage({
          id,
          error:
            error instanceof Error
              ? { name: error.name, message: error.message }
              : { name: 'Error', message: String(error) },
        } satisfies ReplyMessage<Answer>),
    );
  });
};

/**
 * A call made in the thread, or by `here` on the caller's thread when the thread could not answer
 * (failed, exited, stuck); an error of the thread's work is thrown as it came (ThreadCallError).
 */
export const inThreadOrHere = async <Answer>(
  inThread: () => Promise<Answer>,
  here: () => Promise<Answer>,
): Promise<Answer> => {
  try {
    return await inThread();
  } catch (error) {
    if (error instanceof ThreadUnavailableError) return here();
    throw error;
  }
};
