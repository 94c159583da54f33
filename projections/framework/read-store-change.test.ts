import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openReadStore, type ReadStore } from '../read-store/open-read-store';
import { readWhileQuiet } from './read-store-change';

/**
 * Reads shared while the embedded read store is quiet (ADR 54): two stores over one file stand for
 * two processes. An answer is reused only while nothing at all was written, by either.
 */
let dir: string;
let here: ReadStore;
let elsewhere: ReadStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quiet-reads-'));
  here = await openReadStore({ DATA_DIR: dir });
  elsewhere = await openReadStore({ DATA_DIR: dir });
});
afterEach(async () => {
  await here.close();
  await elsewhere.close();
  rmSync(dir, { recursive: true, force: true });
});

type Row = { _id: number; name: string };

/** A read of row 1 that counts how often it really ran. */
const countedRead = (store: ReadStore) => {
  const counter = { reads: 0 };
  const read = () =>
    readWhileQuiet(store.db, 'rows/1', async () => {
      counter.reads += 1;
      return store.db.collection<Row>('rows').findOne({ _id: 1 });
    });
  return { read, counter };
};

describe('readWhileQuiet', () => {
  it('reads once while nothing is written, and again after a write of this process', async () => {
    await here.db.collection<Row>('rows').insertOne({ _id: 1, name: 'Ada' });
    const { read, counter } = countedRead(here);

    expect(await read()).toMatchObject({ name: 'Ada' });
    expect(await read()).toMatchObject({ name: 'Ada' });
    expect(counter.reads).toBe(1);

    await here.db.collection<Row>('rows').updateOne({ _id: 1 }, { $set: { name: 'Grace' } });
    expect(await read()).toMatchObject({ name: 'Grace' });
    expect(counter.reads).toBe(2);
  });

  it('reads again after another process wrote, even to another collection', async () => {
    await here.db.collection<Row>('rows').insertOne({ _id: 1, name: 'Ada' });
    const { read, counter } = countedRead(here);
    await read();

    await elsewhere.db.collection<Row>('other').insertOne({ _id: 9, name: 'x' });
    await read();
    expect(counter.reads).toBe(2);

    await elsewhere.db.collection<Row>('rows').updateOne({ _id: 1 }, { $set: { name: 'Grace' } });
    expect(await read()).toMatchObject({ name: 'Grace' });
    expect(counter.reads).toBe(3);
  });

  it('keeps no failed read', async () => {
    let fail = true;
    const read = () =>
      readWhileQuiet(here.db, 'rows/failing', () =>
        fail ? Promise.reject(new Error('unavailable')) : Promise.resolve('ok'),
      );
    await expect(read()).rejects.toThrow('unavailable');
    fail = false;
    await expect(read()).resolves.toBe('ok');
  });
});
