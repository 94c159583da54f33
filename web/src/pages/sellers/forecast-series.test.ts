import { expectedTotal, revenueBandPoints } from './forecast-series';
import { forecastsFixture } from './seller-fixtures';

describe('the revenue chart points', () => {
  const weekly = forecastsFixture().revenue.weekly!;

  it('shows history, then the forecast, in currency units, the last actual starting the forecast line', () => {
    const points = revenueBandPoints(weekly, 2);
    expect(points.map((point) => point.label)).toEqual([
      'Nov 9, 2026',
      'Nov 16, 2026',
      'Nov 23, 2026',
      'Nov 30, 2026',
    ]);
    expect(points[0]).toEqual({ label: 'Nov 9, 2026', actual: 1200, mean: null, band80: null, band95: null });
    // The joint: the forecast line and its bands leave from the last actual at zero width.
    expect(points[1]).toEqual({
      label: 'Nov 16, 2026',
      actual: 1100,
      mean: 1100,
      band80: [1100, 1100],
      band95: [1100, 1100],
    });
    expect(points[2]).toEqual({
      label: 'Nov 23, 2026',
      actual: null,
      mean: 1150,
      band80: [1050, 1250],
      band95: [950, 1350],
    });
  });

  it('totals the weekly means only', () => {
    expect(expectedTotal(weekly.points)).toBe(2400);
  });
});
