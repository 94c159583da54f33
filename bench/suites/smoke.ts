import { MongoClient } from 'mongodb';
import mongoose, { Schema } from 'mongoose';
import { loadConfig } from '../../contracts/config';
import { percentile, type BenchSuite } from '../harness';

/**
 * Proves the harness end to end on something trivial: single-document writes through mongoose against
 * the same writes through the bare MongoDB driver, on the real Mongo-wire server, in the same run.
 */
const timeInserts = async (count: number, insert: (i: number) => Promise<unknown>) => {
  const latencies: number[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i += 1) {
    const t0 = performance.now();
    await insert(i);
    latencies.push(performance.now() - t0);
  }
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: count / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
};

export const suite: BenchSuite = {
  name: 'smoke',
  description: 'mongoose single-document inserts beside bare-driver inserts on the Mongo-wire server',
  params: { documents: 2000 },
  run: async (params, { log }) => {
    const config = loadConfig(process.env);
    const database = `lwbench_smoke_${Date.now().toString(36)}`;
    const count = params.documents ?? 2000;

    // mongoose speaks only the wire protocol: this suite always runs on the Mongo-wire server.
    const wireUrl = config.MONGO_URL ?? 'mongodb://127.0.0.1:27017/ledgerwise';
    const client = await new MongoClient(wireUrl).connect();
    const raw = client.db(database).collection('raw_rows');
    const connection = await mongoose.createConnection(wireUrl, { dbName: database }).asPromise();
    const Row = connection.model('Row', new Schema({ n: Number, name: String }), 'mongoose_rows');
    // Warm both paths (connections, JIT, the server's files) so neither pays start-up costs in the figures.
    const warmUp = Math.min(200, count);
    await timeInserts(warmUp, (i) => raw.insertOne({ n: -i - 1, name: 'warm-up' }));
    await timeInserts(warmUp, (i) => Row.create({ n: -i - 1, name: 'warm-up' }));

    log(`bare driver: ${count} inserts`);
    const driver = await timeInserts(count, (i) => raw.insertOne({ n: i, name: `row ${i}` }));

    log(`mongoose: ${count} inserts`);
    const viaMongoose = await timeInserts(count, (i) => Row.create({ n: i, name: `row ${i}` }));

    await client.db(database).dropDatabase();
    await client.close();
    await connection.close();

    return [
      {
        name: 'mongoose inserts',
        unit: 'docs/s',
        value: viaMongoose.perSecond,
        baseline: { name: 'bare driver', value: driver.perSecond },
        higherIsBetter: true,
      },
      {
        name: 'mongoose insert p50',
        unit: 'ms',
        value: viaMongoose.p50,
        baseline: { name: 'bare driver p50', value: driver.p50 },
        higherIsBetter: false,
      },
      {
        name: 'mongoose insert p99',
        unit: 'ms',
        value: viaMongoose.p99,
        baseline: { name: 'bare driver p99', value: driver.p99 },
        higherIsBetter: false,
      },
    ];
  },
};
