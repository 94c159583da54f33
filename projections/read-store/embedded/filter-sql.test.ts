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
