import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Binary, MongoBulkWriteError, MongoServerError, ObjectId, type Db, type Document } from 'mongodb';
import { containsText } from '../../projections/search-pattern';
import { createDeclaredIndexes } from '../../projections/read-store/declared-indexes';
import { openReadStore, type ReadStore } from '../../projections/read-store/open-read-store';
import { isolatedNames, wireMongoUrl } from '../harness/isolation';

/**
 * The read-store contract (docs/adr/0028-embedded-read-store.md): the same cases against MongoDB's
 * wire protocol (FerretDB here, MongoDB in production) and against the embedded SQLite store, so the
 * product's queries mean the same on both. Each case is something a read model or query relies on.
 */
const stores: [string, () => Promise<ReadStore>][] = [
  ['embedded', () => openReadStore({ DATA_DIR: mkdtempSync(join(tmpdir(), 'lw-readstore-')) })],
  [
    'mongodb wire (FerretDB)',
    () =>
      openReadStore({ DATA_DIR: '.data', MONGO_URL: wireMongoUrl(isolatedNames(__filename).mongoDatabase) }),
  ],
];

describe.each(stores)('read store contract: %s', (_name, open) => {
  let store: ReadStore;
  let db: Db;
  let count = 0;
  const fresh = (prefix: string) => db.collection<Document>(`${prefix}_${(count += 1)}`);

  beforeAll(async () => {
    store = await open();
    db = store.db;
  });
  afterAll(async () => {
    await db.dropDatabase();
    await store.close();
    if (store.kind === 'embedded') rmSync(db.databaseName, { force: true });
  });

  it('keeps string and number ids apart and generates an ObjectId when none is given', async () => {
    const c = fresh('ids');
    await c.insertOne({ _id: 1, v: 'number' } as never);
    await c.insertOne({ _id: '1', v: 'string' } as never);
    const generated = await c.insertOne({ v: 'generated' });
    expect(generated.insertedId).toBeInstanceOf(ObjectId);
    expect((await c.findOne({ _id: 1 } as never))?.v).toBe('number');
    expect((await c.findOne({ _id: '1' } as never))?.v).toBe('string');
    expect((await c.findOne({ _id: generated.insertedId } as never))?.v).toBe('generated');
  });

  it('reports duplicate keys with code 11000, and unordered inserts keep the rest', async () => {
    const c = fresh('dups');
    await c.insertOne({ _id: 'a' } as never);
    await expect(c.insertOne({ _id: 'a' } as never)).rejects.toMatchObject({ code: 11000 });
    await expect(c.insertOne({ _id: 'a' } as never)).rejects.toBeInstanceOf(MongoServerError);
    const failure = await c
      .insertMany([{ _id: 'b' }, { _id: 'a' }, { _id: 'c' }] as never[], { ordered: false })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MongoBulkWriteError);
    const errors = ([] as { code: number; index: number }[]).concat(
      (failure as MongoBulkWriteError).writeErrors,
    );
    expect(errors.map((e) => [e.code, e.index])).toEqual([[11000, 1]]);
    expect(await c.countDocuments()).toBe(3);
  });

  it('round-trips dates, binary and nested values', async () => {
    const c = fresh('types');
    const at = new Date('2026-11-25T10:00:00.123Z');
    await c.insertOne({
      _id: 'x',
      at,
      bytes: new Binary(Buffer.from('hello')),
      nested: { list: [1, 'two', null] },
    } as never);
    const doc = await c.findOne({ _id: 'x' } as never);
    expect(doc?.at).toEqual(at);
    expect(Buffer.from((doc?.bytes as Binary).buffer).toString()).toBe('hello');
    expect(doc?.nested).toEqual({ list: [1, 'two', null] });
  });

  describe('queries', () => {
    const people = [
      {
        _id: 1,
        name: 'Ada',
        age: 36,
        tenantId: 10,
        tags: ['admin', 'x'],
        role: { kind: 'ADMIN' },
        seen: new Date('2026-01-01'),
      },
      {
        _id: 2,
        name: 'Bob',
        age: 25,
        tenantId: 10,
        tags: ['user'],
        role: { kind: 'USER' },
        seen: new Date('2026-03-01'),
      },
      { _id: 3, name: 'cy', age: 41, tenantId: 20, tags: [], role: { kind: 'USER' }, seen: null },
      { _id: 4, name: 'Dee', tenantId: 20, role: { kind: 'ADMIN' } },
      { _id: 5, name: 'Eve', age: 25, tenantId: 30, active: true, role: { kind: 'USER' } },
    ];
    let c: ReturnType<typeof fresh>;
    const ids = async (filter: Record<string, unknown>, sort: Record<string, 1 | -1> = { _id: 1 }) =>
      (await c.find(filter).sort(sort).toArray()).map((doc) => doc._id);

    beforeAll(async () => {
      c = fresh('people');
      await c.createIndexes([
        { key: { tenantId: 1, age: -1 }, name: 'tenant_age' },
        { key: { tags: 1 }, name: 'tags' },
        { key: { 'role.kind': 1 }, name: 'role_kind' },
      ]);
      await c.insertMany(people as never[]);
    });

    it('matches equality, $in, $nin, $ne and ranges as MongoDB does', async () => {
      expect(await ids({ tenantId: 10 })).toEqual([1, 2]);
      expect(await ids({ tenantId: { $in: [20, 30] } })).toEqual([3, 4, 5]);
      expect(await ids({ tenantId: { $nin: [20, 30] } })).toEqual([1, 2]);
      expect(await ids({ age: { $ne: 25 } })).toEqual([1, 3, 4]);
      expect(await ids({ age: { $gte: 25, $lt: 41 } })).toEqual([1, 2, 5]);
      expect(await ids({ name: { $gt: 'B' } })).toEqual([2, 3, 4, 5]);
      expect(await ids({ tenantId: 10, age: { $gt: 30 } })).toEqual([1]);
    });

    it('matches array members, dotted paths, nulls and missing fields', async () => {
      expect(await ids({ tags: 'admin' })).toEqual([1]);
      expect(await ids({ tags: { $in: ['user', 'x'] } })).toEqual([1, 2]);
      expect(await ids({ tags: { $all: ['admin', 'x'] } })).toEqual([1]);
      expect(await ids({ 'role.kind': 'ADMIN' })).toEqual([1, 4]);
      expect(await ids({ seen: null })).toEqual([3, 4, 5]);
      expect(await ids({ age: { $exists: false } })).toEqual([4]);
      expect(await ids({ active: true })).toEqual([5]);
      expect(await ids({ seen: { $gt: new Date('2026-02-01') } })).toEqual([2]);
    });

    it('combines $or and $and, and searches with a regular expression', async () => {
      expect(await ids({ $or: [{ tenantId: 30 }, { age: 36 }] })).toEqual([1, 5]);
      expect(
        await ids({ $and: [{ tenantId: 20 }, { $or: [{ age: 41 }, { 'role.kind': 'ADMIN' }] }] }),
      ).toEqual([3, 4]);
      expect(await ids({ name: containsText('EV') })).toEqual([5]);
      expect(await ids({ name: { $regex: '^c', $options: 'i' } })).toEqual([3]);
    });

    it('searches the way the admin search boxes do: contains, any case, in strings and string arrays only', async () => {
      // The embedded store narrows these in SQL before the exact check; the answers must not change.
      expect(await ids({ $or: [{ name: containsText('d') }, { tags: containsText('USE') }] })).toEqual([
        1, 2, 4,
      ]);
      expect(await ids({ $or: [{ name: containsText('zz') }, { _id: 3 }] })).toEqual([3]);
      expect(await ids({ 'role.kind': containsText('adm') })).toEqual([1, 4]);
      expect(await ids({ age: containsText('25') })).toEqual([]);
      expect(await ids({ name: /O/ })).toEqual([]);
      expect(await ids({ name: /o/ })).toEqual([2]);
      expect(await ids({ name: containsText('a.') })).toEqual([]);
      expect(await ids({ name: containsText('é') })).toEqual([]);
    });

    it('sorts on several keys, skips, limits, counts and projects', async () => {
      expect(await ids({}, { age: -1, _id: 1 })).toEqual([3, 1, 2, 5, 4]);
      expect(await ids({}, { tenantId: 1, age: -1 })).toEqual([1, 2, 3, 4, 5]);
      const page = await c
        .find({ tenantId: { $in: [10, 20, 30] } })
        .sort({ name: 1 })
        .skip(1)
        .limit(2)
        .toArray();
      expect(page.map((doc) => doc.name as string)).toEqual(['Bob', 'Dee']);
      expect(await c.countDocuments({ 'role.kind': 'USER' })).toBe(3);
      expect(await c.countDocuments({ tags: 'user' })).toBe(1);
      const projected = await c.findOne({ _id: 1 } as never, { projection: { name: 1, 'role.kind': 1 } });
      expect(projected).toEqual({ _id: 1, name: 'Ada', role: { kind: 'ADMIN' } });
      const without = await c
        .find({ _id: 2 } as never)
        .project({ tags: 0, seen: 0, role: 0 })
        .toArray();
      expect(without).toEqual([{ _id: 2, name: 'Bob', age: 25, tenantId: 10 }]);
    });

    it('lists distinct values, array members one by one', async () => {
      expect((await c.distinct('tenantId', { age: { $gte: 25 } })).sort()).toEqual([10, 20, 30]);
      expect((await c.distinct('tags')).sort()).toEqual(['admin', 'user', 'x']);
    });

    it('groups and counts with aggregate', async () => {
      const counts = await c
        .aggregate<{ _id: number; count: number }>([
          { $match: { tenantId: { $in: [10, 20] } } },
          { $group: { _id: '$tenantId', count: { $sum: 1 } } },
        ])
        .toArray();
      expect(counts.sort((a, b) => a._id - b._id)).toEqual([
        { _id: 10, count: 2 },
        { _id: 20, count: 2 },
      ]);
    });

    it('iterates a cursor asynchronously', async () => {
      const seen: unknown[] = [];
      for await (const doc of c.find({}).sort({ _id: -1 })) seen.push(doc._id);
      expect(seen).toEqual([5, 4, 3, 2, 1]);
    });
  });

  it('filters and pages by date ranges on an indexed date, whatever else the field holds', async () => {
    const c = fresh('dated');
    await c.createIndexes([{ key: { at: 1 }, name: 'at' }]);
    const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
    await c.insertMany([
      { _id: 1, at: day('2026-01-10') },
      { _id: 2, at: day('2026-01-20') },
      { _id: 3, at: day('2026-02-05') },
      { _id: 4, at: '2026-01-15' },
      { _id: 5, at: null },
      { _id: 6, at: { when: day('2026-01-12') } },
      { _id: 7 },
    ] as never[]);
    const ids = async (filter: Record<string, unknown>) =>
      (await c.find(filter).sort({ _id: 1 }).toArray()).map((doc) => doc._id);
    const january = { at: { $gte: day('2026-01-01'), $lt: day('2026-02-01') } };

    expect(await ids(january)).toEqual([1, 2]);
    expect(await ids({ at: { $gt: day('2026-01-20') } })).toEqual([3]);
    expect(await ids({ at: { $lte: day('2026-01-20') } })).toEqual([1, 2]);
    expect(await ids({ at: day('2026-01-10') })).toEqual([1]);
    expect(await c.countDocuments(january)).toBe(2);
    const page = await c.find(january).sort({ at: -1 }).skip(1).limit(1).toArray();
    expect(page.map((doc) => doc._id)).toEqual([1]);

    // Dates before 2001 and after 2286 have other digit counts: ranges must still find them.
    await c.insertMany([
      { _id: 8, at: day('1995-06-01') },
      { _id: 9, at: day('2300-01-01') },
      { _id: 10, at: new Date(-86_400_000) },
    ] as never[]);
    expect(await ids({ at: { $lt: day('2026-01-15') } })).toEqual([1, 8, 10]);
    expect(await ids({ at: { $gte: day('2026-02-01') } })).toEqual([3, 9]);
    expect(await c.countDocuments({ at: { $gt: day('1990-01-01'), $lt: day('2026-01-15') } })).toBe(2);
  });

  it('ranges over a date beside an array path of the same index, and still matches array members', async () => {
    const c = fresh('dated_multikey');
    await c.createIndexes([{ key: { sellerIds: 1, at: -1 }, name: 'seller_at' }]);
    await c.insertMany([
      { _id: 1, sellerIds: [5, 6], at: new Date('2026-01-10T00:00:00Z') },
      { _id: 2, sellerIds: [6], at: new Date('2026-03-10T00:00:00Z') },
      { _id: 3, sellerIds: 5, at: new Date('2026-01-20T00:00:00Z') },
    ] as never[]);

    const found = await c
      .find({ sellerIds: 5, at: { $lt: new Date('2026-02-01T00:00:00Z') } })
      .sort({ at: -1 })
      .toArray();
    expect(found.map((doc) => doc._id)).toEqual([3, 1]);
    expect(await c.countDocuments({ at: { $gte: new Date('2026-01-15T00:00:00Z') } })).toBe(2);
  });

  it('finds wide dates stored before their index was made', async () => {
    const c = fresh('dated_late_index');
    await c.insertMany([
      { _id: 1, at: new Date('1999-12-31T00:00:00Z') },
      { _id: 2, at: new Date('2026-05-01T00:00:00Z') },
    ] as never[]);
    await c.createIndexes([{ key: { at: 1 }, name: 'at' }]);

    const found = await c.find({ at: { $lt: new Date('2026-01-01T00:00:00Z') } }).toArray();
    expect(found.map((doc) => doc._id)).toEqual([1]);
  });

  it('updates with $set, $inc and $setOnInsert, upserting from the filter', async () => {
    const c = fresh('updates');
    await c.updateOne(
      { _id: 'k', kind: 'counter' } as never,
      { $setOnInsert: { created: 1 }, $inc: { n: 1 } },
      { upsert: true },
    );
    await c.updateOne(
      { _id: 'k' } as never,
      { $setOnInsert: { created: 2 }, $inc: { n: 1 }, $set: { 'deep.flag': true } },
      { upsert: true },
    );
    expect(await c.findOne({ _id: 'k' } as never)).toEqual({
      _id: 'k',
      kind: 'counter',
      created: 1,
      n: 2,
      deep: { flag: true },
    });
    const after = await c.findOneAndUpdate(
      { _id: 'k' } as never,
      { $inc: { n: 5 } },
      { returnDocument: 'after' },
    );
    expect(after?.n).toBe(7);
    const before = await c.findOneAndUpdate(
      { _id: 'k' } as never,
      { $inc: { n: 1 } },
      { returnDocument: 'before' },
    );
    expect(before?.n).toBe(7);
    expect(await c.findOneAndUpdate({ _id: 'none' } as never, { $inc: { n: 1 } })).toBeNull();
  });

  it('fails a guarded upsert with a duplicate key when the document is newer (the projector relies on it)', async () => {
    const c = fresh('guarded');
    await c.insertOne({ _id: 'row', position: 10 } as never);
    await expect(
      c.updateOne({ _id: 'row', position: { $lt: 5 } } as never, { $set: { position: 5 } }, { upsert: true }),
    ).rejects.toMatchObject({ code: 11000 });
    const applied = await c.updateOne(
      { _id: 'row', position: { $lt: 12 } } as never,
      { $set: { position: 12 } },
      { upsert: true },
    );
    expect(applied.matchedCount).toBe(1);
    expect((await c.findOne({ _id: 'row' } as never))?.position).toBe(12);
  });

  it('updates many, replaces, deletes and runs mixed bulk writes with counts', async () => {
    const c = fresh('bulk');
    await c.insertMany([1, 2, 3, 4].map((n) => ({ _id: n, even: n % 2 === 0, v: 0 })) as never[]);
    const many = await c.updateMany({ even: true }, { $set: { v: 1 } });
    expect([many.matchedCount, many.modifiedCount]).toEqual([2, 2]);
    const same = await c.updateMany({ even: true }, { $set: { v: 1 } });
    expect([same.matchedCount, same.modifiedCount]).toEqual([2, 0]);
    await c.replaceOne({ _id: 1 } as never, { replaced: true });
    expect(await c.findOne({ _id: 1 } as never)).toEqual({ _id: 1, replaced: true });
    await c.replaceOne({ _id: 9 } as never, { fresh: true }, { upsert: true });
    expect(await c.findOne({ _id: 9 } as never)).toEqual({ _id: 9, fresh: true });
    const bulk = await c.bulkWrite([
      { insertOne: { document: { _id: 10 } as never } },
      { updateOne: { filter: { _id: 2 } as never, update: { $set: { v: 2 } } } },
      { replaceOne: { filter: { _id: 11 } as never, replacement: { r: 1 }, upsert: true } },
      { deleteOne: { filter: { _id: 3 } as never } },
      { deleteMany: { filter: { even: true } } },
    ]);
    expect([
      bulk.insertedCount,
      bulk.matchedCount,
      bulk.modifiedCount,
      bulk.upsertedCount,
      bulk.deletedCount,
    ]).toEqual([1, 1, 1, 1, 3]);
    expect((await c.find({}).sort({ _id: 1 }).toArray()).map((doc) => doc._id)).toEqual([1, 9, 10, 11]);
    expect((await c.deleteOne({ _id: 1 } as never)).deletedCount).toBe(1);
    expect((await c.deleteMany({})).deletedCount).toBe(3);
  });

  it('lists, indexes and drops collections', async () => {
    const c = fresh('catalog');
    await c.createIndex({ a: 1, b: -1 }, { name: 'a_b' });
    await c.insertOne({ a: 1, b: 2 });
    const names = (await c.listIndexes().toArray()).map((index: { name?: unknown }) => String(index.name));
    expect(names).toEqual(expect.arrayContaining(['_id_', 'a_b']));
    const listed = await db.listCollections({}, { nameOnly: true }).toArray();
    expect(listed.map((entry) => entry.name)).toContain(c.collectionName);
    await c.drop();
    const after = await db.listCollections({ name: c.collectionName }, { nameOnly: true }).toArray();
    expect(after).toEqual([]);
    expect(await c.countDocuments()).toBe(0);
  });

  it('answers a unique index violation with a duplicate key', async () => {
    const c = fresh('unique');
    await c.createIndex({ email: 1 }, { name: 'email', unique: true });
    await c.insertOne({ email: 'a@example.com' });
    await expect(c.insertOne({ email: 'a@example.com' })).rejects.toMatchObject({ code: 11000 });
  });

  it('counts through a counted index exactly as the documents stand, after every kind of write', async () => {
    const c = fresh('counted');
    await createDeclaredIndexes(db, c.collectionName, [
      { key: { status: 1, kind: 1 }, name: 'status_kind_counts', counted: true },
    ]);
    // Made after the first rows: the counters start from what is stored.
    await c.insertMany([
      { _id: 1, status: 'active', kind: 'a' },
      { _id: 2, status: 'active', kind: 'b' },
    ] as never[]);
    await createDeclaredIndexes(db, c.collectionName, [
      { key: { flag: 1 }, name: 'flag_counts', counted: true },
    ]);
    await c.insertMany([
      { _id: 3, status: 'disabled', kind: 'a', flag: true },
      { _id: 4, status: 'purged', kind: 'a', flag: 1 },
      { _id: 5, kind: 'a', flag: false },
      { _id: 6, status: null, kind: 'b' },
    ] as never[]);
    const counts = async () => [
      await c.countDocuments({}),
      await c.countDocuments({ status: 'active' }),
      await c.countDocuments({ status: { $in: ['active', 'disabled'] } }),
      await c.countDocuments({ $and: [{ status: { $in: ['active', 'disabled'] } }, { kind: 'a' }] }),
      await c.countDocuments({ flag: true }),
      await c.countDocuments({ flag: 1 }),
    ];
    expect(await counts()).toEqual([6, 2, 3, 2, 1, 1]);
    await c.updateOne({ _id: 1 } as never, { $set: { status: 'disabled' } });
    await c.updateMany({ kind: 'b' }, { $set: { status: 'active' } });
    await c.replaceOne({ _id: 4 } as never, { status: 'active', kind: 'a', flag: true });
    await c.deleteOne({ _id: 3 } as never);
    await c.bulkWrite([
      { insertOne: { document: { _id: 7, status: 'active', kind: 'a' } as never } },
      { updateOne: { filter: { _id: 5 } as never, update: { $set: { status: 'disabled' } } } },
    ]);
    // 1 disabled/a, 2 active/b, 4 active/a flag true, 5 disabled/a, 6 active/b, 7 active/a
    expect(await counts()).toEqual([6, 4, 6, 4, 1, 0]);
    await c.deleteMany({ status: 'active' });
    expect(await counts()).toEqual([2, 0, 2, 2, 0, 0]);
  });

  it('finds contains-searches through a search index as the regex decides them', async () => {
    const c = fresh('searched');
    await c.insertOne({ _id: 1, Name: 'Ann Lee', Email: 'ann@example.com' } as never);
    await createDeclaredIndexes(db, c.collectionName, [
      { key: { Name: 1, Email: 1 }, name: 'name_email_search', search: true },
    ]);
    await c.insertMany([
      { _id: 2, Name: 'JOANNA Smith', Email: 'jo@example.com' },
      { _id: 3, Name: 'Bob', Email: 'bob.annex@example.org' },
      { _id: 4, Name: ['Hannah', 'Ho'], Email: null },
      { _id: 5, Name: 12345, Email: 'n@example.com' },
      { _id: 6, Name: 'Ana', Email: 'a.n.n@example.com' },
    ] as never[]);
    const search = async (text: string, extra: Document = {}) =>
      (
        await c
          .find({ ...extra, $or: [{ Name: containsText(text) }, { Email: containsText(text) }] })
          .sort({ _id: 1 })
          .toArray()
      ).map((doc) => doc._id);
    expect(await search('ann')).toEqual([1, 2, 3, 4]);
    expect(await search('AN')).toEqual([1, 2, 3, 4, 6]);
    expect(await search('a.n.n')).toEqual([6]);
    expect(await search('234')).toEqual([]);
    expect(await search('ann', { _id: { $in: [2, 3] } })).toEqual([2, 3]);
    expect(await c.countDocuments({ Name: containsText('anna') })).toBe(2);
    expect(await c.find({ Name: /Ann/ }).toArray()).toHaveLength(1);
    await c.updateOne({ _id: 1 } as never, { $set: { Name: 'Lee', Email: 'lee@example.com' } });
    await c.deleteOne({ _id: 2 } as never);
    expect(await search('ann')).toEqual([3, 4]);
    // The index is no collection of its own (a scan of every collection must not meet it).
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((entry) => entry.name);
    expect(names.filter((name) => name.startsWith(c.collectionName))).toEqual([c.collectionName]);
  });

  it('matches nothing with an empty $in and everything listed with a long one', async () => {
    const c = fresh('inlists');
    await c.createIndex({ n: 1 }, { name: 'n' });
    await c.insertMany(Array.from({ length: 1200 }, (_, i) => ({ _id: i + 1, n: i })) as never[]);
    expect(await c.countDocuments({ n: { $in: [] } })).toBe(0);
    expect(await c.find({ $or: [{ n: { $in: [] } }, { n: 5 }] }).toArray()).toHaveLength(1);
    const wanted = Array.from({ length: 700 }, (_, i) => i * 2);
    expect(await c.countDocuments({ n: { $in: wanted } })).toBe(600);
    expect(
      (
        await c
          .find({ n: { $in: wanted } })
          .sort({ n: -1 })
          .limit(2)
          .toArray()
      ).map((doc) => doc.n as number),
    ).toEqual([1198, 1196]);
  });
});
