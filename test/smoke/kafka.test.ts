import { Kafka, logLevel } from 'kafkajs';
import { isolatedNames, testConfig } from '../harness/isolation';

const names = isolatedNames(__filename);
const config = testConfig(names);
const kafka = new Kafka({ clientId: names.runId, brokers: config.KAFKA_BROKERS, logLevel: logLevel.NOTHING });
const topic = `${names.kafkaTopicPrefix}.smoke`;
const groupId = `${names.kafkaTopicPrefix}.smoke-group`;

describe('kafkajs against the real broker', () => {
  it('produces a batch, consumes it with a consumer group and commits the offsets', async () => {
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true });

    const producer = kafka.producer();
    await producer.connect();
    const sent = Array.from({ length: 20 }, (_, i) => ({
      key: `seller-${i % 4}`,
      value: JSON.stringify({ n: i }),
    }));
    await producer.send({ topic, messages: sent });
    await producer.disconnect();

    const consumer = kafka.consumer({ groupId });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const received: number[] = [];
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ message }) => {
            received.push((JSON.parse(message.value!.toString()) as { n: number }).n);
            if (received.length === sent.length) resolve();
            return Promise.resolve();
          },
        })
        .catch(reject);
    });
    await consumer.disconnect(); // commits the offsets of what it processed

    expect(received.sort((a, b) => a - b)).toEqual(sent.map((_, i) => i));
    const offsets = await admin.fetchOffsets({ groupId, topics: [topic] });
    const committed = offsets[0]!.partitions.reduce((sum, p) => sum + Number(p.offset), 0);
    expect(committed).toBe(sent.length);
    await admin.disconnect();
  });
});
