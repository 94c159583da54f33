/**
 * The report archive's upload thread (report-object-store.ts, docs/adr/0058): uploads each file it is
 * given with an S3 client of its own, off the worker's main thread, and answers once S3 stored it
 * (or with the store's error, whose message the caller keeps).
 */
import { workerData } from 'node:worker_threads';
import { serveThreadCalls } from '../../threads/thread-calls';
import { createReportObjectStore, type ObjectStoreConfig, type PutCall } from './report-object-store';

const store = createReportObjectStore(workerData as ObjectStoreConfig, { putThread: false });

serveThreadCalls<PutCall, null>(async ({ key, bytes, contentType }) => {
  await store.put(key, bytes, contentType);
  return null;
});
