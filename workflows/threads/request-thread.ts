import { Worker } from 'node:worker_threads';

/**
 * What the sync's feed thread and the analytics consumer's facts thread share (docs/adr/0055,
 * docs/adr/0041): a worker thread running a TypeScript file, and the requests it has not answered
 * yet, by id.
 */

/** A worker thread on a TypeScript file, loaded as the process loads TypeScript (tsx or jest). */
export const startTypeScriptThread = (file: string, workerData?: unknown): Worker =>
  new Worker(file, { execArgv: ['--require', require.resolve('tsx/cjs')], workerData });

/**
 * The requests sent to a thread and not answered yet. A thread that fails or exits fails them all at
 * once (`failAll`); its next request starts a new thread.
 */
export const pendingReplies = <Answer>() => {
  const waiting = new Map<number, { resolve: (answer: Answer) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  return {
    /** A new request's id; its promise settles when `answer` or `fail` names that id, or on failAll. */
    add: (resolve: (answer: Answer) => void, reject: (error: Error) => void): number => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      return id;
    },
    has: (id: number) => waiting.has(id),
    get size() {
      return waiting.size;
    },
    answer: (id: number, answer: Answer) => {
      const request = waiting.get(id);
      waiting.delete(id);
      request?.resolve(answer);
    },
    fail: (id: number, error: Error) => {
      const request = waiting.get(id);
      waiting.delete(id);
      request?.reject(error);
    },
    failAll: (error: Error) => {
      for (const { reject } of waiting.values()) reject(error);
      waiting.clear();
    },
  };
};
