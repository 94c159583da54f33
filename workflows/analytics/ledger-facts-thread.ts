/**
 * The facts thread of the analytics consumer (ledger-facts-thread-client.ts): a worker thread that
 * parses and packs the feed lines of each partition batch it is given, in the order given, and
 * answers with the batch's fact groups. It writes nothing: the consumer's thread writes them.
 */
import { parentPort } from 'node:worker_threads';
import { buildBatch } from './ledger-facts-lines';
import { columnsOf, type FactsThreadReply, type FactsThreadRequest } from './ledger-facts-thread-client';

const port = parentPort;
if (!port) throw new Error('ledger-facts-thread runs as a worker thread only');

port.on('message', (request: FactsThreadRequest) => {
  try {
    const bytes = Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength);
    const { starts, ends, offsets } = request;
    const built = buildBatch(
      ends.length,
      (i) => (ends[i]! > starts[i]! ? bytes.toString('utf8', starts[i], ends[i]) : null),
      (i) => offsets[i]!,
    );
    port.postMessage({
      id: request.id,
      columns: columnsOf(built.groups),
      records: built.records,
    } satisfies FactsThreadReply);
  } catch (error) {
    port.postMessage({
      id: request.id,
      error: error instanceof Error ? error.message : String(error),
    } satisfies FactsThreadReply);
  }
});
