import { hostname } from 'node:os';

/** Names the worker process that ran the activity. */
export const describeWorker = (): Promise<string> => Promise.resolve(`${hostname()}:${process.pid}`);
