/**
 * An analytics consumer in a process of its own, so a test can SIGKILL it.
 * Usage: node --import tsx analytics-child.ts consumer|stalling <groupId> (configuration from the
 * environment). `stalling` writes its first batches, then after writing the third (before committing
 * its offsets) says `applied` and never commits: the test kills it at that exact point.
 */
import { Kafka, logLevel } from 'kafkajs';
import { loadConfig } from '../../contracts/config';
import { openReadStore } from '../../projections/read-store/open-read-store';
import { startLedgerFactsConsumer } from '../../workflows/analytics/ledger-facts-consumer';

const main = async () => {
  const config = loadConfig(process.env);
  const [role, groupId] = process.argv.slice(2);
  const readStore = await openReadStore(config);
  const kafka = new Kafka({
    clientId: 'analytics-child',
    brokers: config.KAFKA_BROKERS,
    logLevel: logLevel.NOTHING,
  });
  let batches = 0;
  await startLedgerFactsConsumer({
    kafka,
    db: readStore.db,
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
    groupId,
    afterApply: async () => {
      batches += 1;
      if (role === 'stalling' && batches >= 3) {
        process.stdout.write('applied\n');
        await new Promise(() => undefined);
      }
    },
  });
  process.stdout.write('ready\n');
};

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
