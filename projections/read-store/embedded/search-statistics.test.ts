import { cheapestPart, sampleOf } from './search-statistics';

/** Rows as the admin users table holds them: every name has "user", ids vary in their last digits. */
const users = (count: number, first = 1_000_000) =>
  sampleOf(
    300_000,
    Array.from({ length: count }, (_, i) => [
      `Seeded User ${first + i * 149}`,
      `seeded-${first + i * 149}@example.test`,
    ]),
  );

describe('cheapestPart: what a trigram lookup asks the search index for', () => {
  it('leaves out the trigrams every row holds, keeping a part that still singles the row out', () => {
    const part = cheapestPart('user 1000150', users(2000));
    expect('user 1000150').toContain(part);
    expect(part.length).toBeGreaterThanOrEqual(3);
    expect(part).not.toMatch(/use|ser|er /);
    // Not a part so short that it leaves many rows to check: more than the id's rarest digits.
    expect(part.length).toBeGreaterThan(4);
  });

  it('looks up the whole text when nothing is known, and texts of one trigram as they are', () => {
    expect(cheapestPart('user 1000150', sampleOf(0, []))).toBe('user 1000150');
    expect(cheapestPart('Abc', users(100))).toBe('Abc');
  });

  it('keeps the case of the text it was given (the index folds ASCII case itself)', () => {
    const part = cheapestPart('Books Ltd', sampleOf(1000, [['Books Ltd'], ['Other Co']]));
    expect('Books Ltd').toContain(part);
  });

  it('picks a part no sampled row holds over one every row holds', () => {
    const sample = sampleOf(
      100_000,
      Array.from({ length: 500 }, (_, i) => [`Seeded Books ${i}`, null]),
    );
    const part = cheapestPart('books zeta', sample);
    expect(part).toMatch(/zet|eta/);
  });
});
