import { factOf } from './ledger-facts-consumer';
import { feedLine } from './testing/feed-line';

/** Seller 12's invoice I1, with `fields` replaced. */
const line = (fields: Record<string, unknown> = {}) => feedLine(12, 'I1', fields);

describe('a feed line read by the analytics consumer', () => {
  it('becomes the fact of its record version', () => {
    expect(factOf(line(), 41)).toEqual({
      _id: 'invoices:12:I1',
      sellerId: 12,
      epoch: 3,
      offset: 41,
      entity: 'invoices',
      customerId: 7,
      day: 19_782,
      dueDay: 19_812,
      amount: 1200,
      balance: 200,
    });
    expect(factOf(line({ deleted: true, record: {} }), 42)).toMatchObject({
      _id: 'invoices:12:I1',
      deleted: true,
    });
  });

  it('is skipped, not thrown on, when it cannot be keyed (a poison record would stall its partition)', () => {
    const unkeyable = [
      'null',
      '[1]',
      '"text"',
      'not json',
      line({ schemaVersion: 2 }),
      line({ entity: 'bills' }),
      line({ record: undefined }),
      line({ record: null }),
      line({ providerId: undefined }),
      line({ providerId: 5 }),
      line({ sellerId: '12' }),
      line({ epoch: 1.5 }),
    ];
    for (const text of unkeyable) expect([text, factOf(text, 1)]).toEqual([text, null]);
  });
});
