import { defaultDatasetRange } from './request-datasets';

describe('the default data-set range', () => {
  it('ends on the first day of two months ago and starts three years before it', () => {
    expect(defaultDatasetRange(new Date('2025-05-15T10:00:00Z'))).toEqual({
      startDate: '2022-03-01',
      endDate: '2025-03-01',
    });
  });

  it('crosses a year boundary', () => {
    expect(defaultDatasetRange(new Date('2026-01-31T23:59:59Z'))).toEqual({
      startDate: '2022-11-01',
      endDate: '2025-11-01',
    });
  });
});
