import { containsText } from '../../search-pattern';
import { compileFilter } from './filter-sql';

const knowledge = { singleKeyPaths: new Set(['email']) };

describe('compileFilter: searches', () => {
  it('narrows a case-insensitive contains search in SQL, leaving the exact check to mingo', () => {
    const plan = compileFilter({ name: containsText('Ada') }, knowledge);

    expect(plan.where).toContain('instr(lower(');
    expect(plan.params).toEqual(['ada']);
    expect(plan.exact).toBe(false);
  });

  it('narrows an $or of searches and an id only when every branch narrows', () => {
    const narrowed = compileFilter(
      { $or: [{ name: containsText('ada') }, { email: containsText('ada') }, { _id: 7 }] },
      knowledge,
    );
    expect(narrowed.where).toMatch(/ OR .* OR /);
    expect(narrowed.params).toEqual(['ada', 'ada', '7']);

    const open = compileFilter(
      { $or: [{ name: containsText('ada') }, { 'a.b': containsText('x') }] },
      knowledge,
    );
    expect(open.where).toBe('1');
  });

  it('keeps exact $or branches exact, so pages and counts run in SQL', () => {
    const plan = compileFilter({ $or: [{ email: 'a@x.test' }, { _id: 2 }] }, knowledge);

    expect(plan.exact).toBe(true);
  });

  it('does not narrow patterns that are not plain text: classes, anchors, other flags, non-ASCII', () => {
    for (const pattern of [/\d+/, /^ada/i, /ada/g, containsText('é'), containsText('say "hi"')]) {
      expect(compileFilter({ name: pattern }, knowledge).where).toBe('1');
    }
  });
});

describe('compileFilter: dates', () => {
  const dated = {
    singleKeyPaths: new Set(['createdAt', 'email']),
    dateRangePaths: new Set(['createdAt']),
  };
  const from = new Date('2026-01-01T00:00:00Z');
  const to = new Date('2026-02-01T00:00:00Z');

  it('turns a date range on a date-range path into an exact index range over the stored text', () => {
    const plan = compileFilter({ createdAt: { $gte: from, $lt: to } }, dated);

    expect(plan.exact).toBe(true);
    expect(plan.where).toContain(`json_extract(doc, '$."createdAt"') >= ?`);
    expect(plan.where).toContain(`json_extract(doc, '$."createdAt"') < ?`);
    expect(plan.params).toEqual(
      expect.arrayContaining([`{"$date":${from.getTime()}}`, `{"$date":${to.getTime()}}`]),
    );
  });

  it('keeps date ranges out of SQL where stored dates may not sort as text', () => {
    // Indexed, but a date before 2001 or after 2286 was stored there (the catalog's wide_dates flag).
    const wide = compileFilter(
      { createdAt: { $gte: from } },
      { singleKeyPaths: dated.singleKeyPaths, dateRangePaths: new Set() },
    );
    expect(wide).toEqual({ where: '1', params: [], exact: false });

    // The bound itself has fewer than 13 digits of milliseconds.
    const early = compileFilter({ createdAt: { $lt: new Date('1999-01-01T00:00:00Z') } }, dated);
    expect(early).toEqual({ where: '1', params: [], exact: false });

    // Not indexed: mingo decides.
    expect(compileFilter({ paidAt: { $gte: from } }, dated).where).toBe('1');
  });

  it('matches a date exactly by its stored text on an indexed path, as a superset elsewhere', () => {
    const exact = compileFilter({ createdAt: from }, dated);
    expect(exact.exact).toBe(true);
    expect(exact.params).toEqual([`{"$date":${from.getTime()}}`]);

    const superset = compileFilter({ paidAt: from }, dated);
    expect(superset.exact).toBe(false);
    expect(superset.where).toContain(`= 'array'`);
  });

  it('keeps an exact date range beside other exact conditions exact', () => {
    const plan = compileFilter({ email: 'a@x.test', createdAt: { $gt: from, $lte: to } }, dated);

    expect(plan.exact).toBe(true);
  });
});

describe('compileFilter: search indexes', () => {
  const searched = {
    singleKeyPaths: new Set(['deleted', 'tenantId']),
    searchPaths: new Map([
      ['Name', { table: '"fts"', column: 'c0' }],
      ['Email', { table: '"fts"', column: 'c1' }],
    ]),
  };

  it('looks a name-or-email search up once in the trigram index, over both columns', () => {
    const plan = compileFilter(
      { deleted: false, $or: [{ Name: containsText('Ann L') }, { Email: containsText('Ann L') }] },
      searched,
    );
    expect(plan.where.match(/MATCH \?/g)).toHaveLength(1);
    expect(plan.params).toEqual([0, '{c0 c1} : "Ann L"']);
    expect(plan.exact).toBe(false);
  });

  it('keeps instr for texts shorter than a trigram and for different texts per column', () => {
    expect(compileFilter({ Name: containsText('an') }, searched).where).toContain('instr(lower(');
    const two = compileFilter(
      { $or: [{ Name: containsText('ann') }, { Email: containsText('bob') }] },
      searched,
    );
    expect(two.where.match(/MATCH \?/g)).toHaveLength(2);
  });

  it('drops $or branches that match nothing and compiles an empty $in to no row', () => {
    const plan = compileFilter({ $or: [{ Name: containsText('ann') }, { tenantId: { $in: [] } }] }, searched);
    expect(plan.where).not.toMatch(/\b0\b/);
    expect(plan.where).toContain('MATCH ?');
    expect(compileFilter({ tenantId: { $in: [] } }, searched)).toEqual({
      where: '0',
      params: [],
      exact: true,
    });
  });

  it('passes a long $in as one JSON parameter', () => {
    const ids = Array.from({ length: 600 }, (_, i) => i + 1);
    const plan = compileFilter({ tenantId: { $in: ids } }, searched);
    expect(plan.where).toContain('json_each(?)');
    expect(plan.params).toEqual([JSON.stringify(ids)]);
    expect(plan.exact).toBe(true);
  });
});
