import { Query, update as mingoUpdate } from 'mingo';
import { ObjectId } from 'mongodb';
import { cloneDocument } from './document-codec';
import { applyDirectUpdate, matcherFor } from './fast-paths';

type Doc = Record<string, unknown>;

const base = (): Doc => ({
  _id: 'u1',
  name: 'Ada',
  count: 2,
  profile: { title: 'Engineer', address: { city: 'London' } },
  tags: ['a', 'b'],
  joined: new Date('2026-01-02T00:00:00Z'),
});

/** What mingo, which the store used for every update before, makes of the same update. */
const byMingo = (doc: Doc, operators: Doc) => {
  const copy = cloneDocument(doc);
  mingoUpdate(copy, operators as Parameters<typeof mingoUpdate>[1]);
  return copy;
};

describe('applyDirectUpdate', () => {
  const handled: [string, Doc][] = [
    ['$set of a top-level field', { $set: { name: 'Grace' } }],
    ['$set of a new nested path, creating its objects', { $set: { 'settings.mail.weekly': true } }],
    ['$set of an existing nested field', { $set: { 'profile.address.city': 'Paris' } }],
    ['$set of an object value, copied', { $set: { profile: { title: 'Lead' } } }],
    ['$set of a date', { $set: { joined: new Date('2026-05-01T00:00:00Z') } }],
    ['$set of an array', { $set: { tags: ['c'] } }],
    ['$unset of a nested field', { $unset: { 'profile.title': '' } }],
    ['$unset of a missing path', { $unset: { 'nothing.here': '' } }],
    ['$inc of an existing number', { $inc: { count: 3 } }],
    ['$inc of a missing field', { $inc: { 'stats.visits': 1 } }],
    ['$set and $inc together', { $set: { name: 'Grace' }, $inc: { count: -1 } }],
  ];

  it.each(handled)('%s: the same document as mingo makes', (_, operators) => {
    const doc = base();
    const expected = byMingo(doc, operators);

    expect(applyDirectUpdate(doc, operators as Record<string, Doc>)).toBe(true);
    expect(doc).toEqual(expected);
  });

  it('keeps no reference to the values it set: changing them later changes nothing stored', () => {
    const doc = base();
    const profile = { title: 'Lead' };
    applyDirectUpdate(doc, { $set: { profile } });
    profile.title = 'changed';

    expect((doc.profile as Doc).title).toBe('Lead');
  });

  const refused: [string, Doc][] = [
    ['an operator it does not implement', { $push: { tags: 'c' } }],
    ['a path through an array', { $set: { 'tags.0': 'z' } }],
    ['a path through a scalar', { $set: { 'name.first': 'A' } }],
    ['a positional segment', { $set: { 'tags.$': 'z' } }],
    ['overlapping paths', { $set: { profile: {}, 'profile.title': 'x' } }],
    ['$inc of a non-number', { $inc: { name: 1 } }],
    ['$inc by a non-number', { $inc: { count: '1' } }],
  ];

  it.each(refused)('leaves %s to mingo, with the document untouched', (_, operators) => {
    const doc = base();
    const before = cloneDocument(doc);

    expect(applyDirectUpdate(doc, operators as Record<string, Doc>)).toBe(false);
    expect(doc).toEqual(before);
  });
});

describe('matcherFor', () => {
  it('tells apart filters that differ only in a date, an ObjectId or a regular expression', () => {
    const doc = {
      at: new Date('2026-01-01T00:00:00Z'),
      owner: new ObjectId('64b000000000000000000001'),
      name: 'Ada',
    };

    expect(matcherFor({ at: new Date('2026-01-01T00:00:00Z') }).test(doc)).toBe(true);
    expect(matcherFor({ at: new Date('2026-01-02T00:00:00Z') }).test(doc)).toBe(false);
    expect(matcherFor({ owner: new ObjectId('64b000000000000000000001') }).test(doc)).toBe(true);
    expect(matcherFor({ owner: new ObjectId('64b000000000000000000002') }).test(doc)).toBe(false);
    expect(matcherFor({ name: /^ad/i }).test(doc)).toBe(true);
    expect(matcherFor({ name: /^ad/ }).test(doc)).toBe(false);
  });

  it('is not changed by a caller that mutates its filter after use', () => {
    const filter = { name: { $in: ['Ada'] } };
    expect(matcherFor(filter).test({ name: 'Ada' })).toBe(true);

    filter.name.$in.push('Grace');

    expect(matcherFor({ name: { $in: ['Ada'] } }).test({ name: 'Grace' })).toBe(false);
    expect(matcherFor(filter).test({ name: 'Grace' })).toBe(true);
  });
});

describe('matcherFor on simple filters (tested directly, without mingo)', () => {
  const docs: Doc[] = [
    { _id: 1, position: 5, name: 'Ada', active: true },
    { _id: '1', position: 7, name: 'Ada' },
    { _id: 2, position: null },
    { _id: 3 },
    { _id: 4, position: '5' },
    { _id: 5, position: new Date('2026-01-01T00:00:00Z') },
    { _id: 6, position: [3, 9] },
    { _id: 7, position: { at: 5 } },
    { _id: 8, position: 5, active: false },
  ];
  const filters: Doc[] = [
    {},
    { _id: 1 },
    { _id: '1' },
    { _id: 1, position: { $lt: 6 } },
    { position: { $lt: 6 } },
    { position: { $lte: 5 } },
    { position: { $gt: 4, $lt: 8 } },
    { position: { $gte: 9 } },
    { name: 'Ada', position: { $gt: 5 } },
    { active: true },
    { active: false },
    { position: 5 },
  ];

  it.each(filters.map((filter) => [JSON.stringify(filter), filter] as const))(
    '%s: matches the same documents as mingo',
    (_, filter) => {
      const direct = docs.filter((doc) => matcherFor(filter).test(doc)).map((doc) => doc._id);
      const byMingoQuery = docs.filter((doc) => new Query(filter).test(doc)).map((doc) => doc._id);
      expect(direct).toEqual(byMingoQuery);
    },
  );
});
