import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BSON } from 'mongodb';
import { openReadStore, type ReadStore } from '../open-read-store';
import { cloneDocument, decodeDocument, encodeDocument, RawJson } from './document-codec';

describe('a RawJson field', () => {
  const text = '[["I1",1,20,0,7,19782,19812,123456,-25],["P\\"2",1,21,1,{"a":[true,null,"\\u0000"]}]]';

  it('is written into the stored JSON as its text, not escaped again, and reads back as its value', () => {
    const joined = new Date('2026-01-02T00:00:00Z');
    const encoded = encodeDocument({ _id: 'g1', sellerId: 5, facts: new RawJson(text), joined });
    expect(encoded.json).toBe(
      `{"_id":"g1","sellerId":5,"facts":${text},"joined":{"$date":${joined.getTime()}}}`,
    );
    expect(decodeDocument(encoded.json, encoded.tags)).toEqual({
      _id: 'g1',
      sellerId: 5,
      facts: JSON.parse(text) as unknown,
      joined,
    });
  });

  it('keeps several raw values apart, at any depth, and leaves strings that look like its marker alone', () => {
    const doc = {
      a: new RawJson('1'),
      b: [new RawJson('{"x":"y"}'), 'plain \u0000rawjson:0'],
      c: { d: new RawJson('"text"') },
    };
    const { json, tags } = encodeDocument(doc);
    expect(decodeDocument(json, tags)).toEqual({
      a: 1,
      b: [{ x: 'y' }, 'plain \u0000rawjson:0'],
      c: { d: 'text' },
    });
  });

  it('is kept as it is by a document copy and stored by the driver as the value it denotes', () => {
    const raw = new RawJson(text);
    expect(cloneDocument({ facts: raw }).facts).toBe(raw);
    expect(BSON.deserialize(BSON.serialize({ facts: raw }))).toEqual({ facts: JSON.parse(text) as unknown });
  });

  describe('on the embedded store', () => {
    let store: ReadStore;
    beforeAll(async () => {
      store = await openReadStore({ DATA_DIR: mkdtempSync(join(tmpdir(), 'lw-raw-json-')) });
    });
    afterAll(() => store.close());

    it('inserts, finds by an indexed field and replaces a document holding one', async () => {
      const groups = store.db.collection<{ _id: string; sellerId: number; facts: unknown }>('groups');
      await groups.createIndex({ sellerId: 1 }, { name: 'seller' });
      await groups.insertMany([
        { _id: 'g1', sellerId: 5, facts: new RawJson(text) },
        { _id: 'g2', sellerId: 6, facts: new RawJson('[]') },
      ]);
      expect(await groups.find({ sellerId: 5 }).toArray()).toEqual([
        { _id: 'g1', sellerId: 5, facts: JSON.parse(text) as unknown },
      ]);
      await groups.replaceOne({ _id: 'g2' }, { sellerId: 6, facts: new RawJson('[1]') });
      expect(await groups.findOne({ _id: 'g2' })).toEqual({ _id: 'g2', sellerId: 6, facts: [1] });
    });
  });
});
