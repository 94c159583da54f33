/**
 * The feed thread of createThreadedLedgerFeedSender (threaded-ledger-feed-sender.ts): a worker thread
 * with its own Kafka producer that sends the feed lines it is given, one request after the other in
 * the order they came, and answers each with how many records Kafka acknowledged or why it failed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Kafka } from 'kafkajs';
import { recordIdOfLine } from '../ledger/ledger-outbox';
import { createFeedProducer } from './ledger-feed-sender';
import type { FeedThreadData, FeedThreadReply, FeedThreadRequest } from './threaded-ledger-feed-sender';

const port = parentPort;
if (!port) throw new Error('ledger-feed-thread runs as a worker thread only');
const { kafka, topicPrefix } = workerData as FeedThreadData;
const producer = createFeedProducer({ kafka: new Kafka(kafka), topicPrefix });
const reply = (message: FeedThreadReply) => {
  port.postMessage(message);
};

const handle = async (request: FeedThreadRequest) => {
  if (request.type === 'disconnect') {
    await producer.disconnect();
    reply({ type: 'disconnected' });
    return;
  }
  try {
    const sent = await producer.sendRecords(
      request.sellerId,
      // Record ids read from the lines here, off the sync's thread, unless the entry listed them.
      request.records.map(({ entity, values, recordIds }) => ({
        entity,
        values,
        recordIds: recordIds ?? values.map(recordIdOfLine),
      })),
    );
    reply({ type: 'sent', id: request.id, sent });
  } catch (error) {
    reply({ type: 'failed', id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
};

// One request at a time, in order: a seller's records reach Kafka in the order they were written.
let queue: Promise<void> = Promise.resolve();
port.on('message', (request: FeedThreadRequest) => {
  queue = queue.then(() => handle(request));
});
