import { addExclusionTags, exclusionTagError, idListOf } from './exclusion-tags';

describe('exclusion tags', () => {
  it('adds integer ids and ignores duplicates, typed one at a time or several at once', () => {
    expect(addExclusionTags([3], '7')).toEqual({ tags: [3, 7], error: null });
    expect(addExclusionTags([3, 7], '7, 9 3 11')).toEqual({ tags: [3, 7, 9, 11], error: null });
  });

  it('refuses anything that is not a positive whole number, adding nothing', () => {
    for (const typed of ['abc', '1.5', '-2', '0', '4, x'])
      expect(addExclusionTags([3], typed)).toEqual({ tags: [3], error: exclusionTagError });
  });

  it('reads a server value as a list of ids', () => {
    expect(idListOf([1, 2])).toEqual([1, 2]);
    expect(idListOf(null)).toEqual([]);
    expect(idListOf([1, 'x', 0])).toEqual([1]);
  });
});
