import type { CashInWeek, ForecastPoint, RevenueForecast } from '../../../../contracts/api/forecasts';

/**
 * The seller page's forecast charts as points: actuals, then the forecast's mean with its 80 and 95
 * percent intervals. Money arrives in cents and leaves in currency units (admin.md section 9).
 */
export type BandPoint = {
  label: string;
  /** What happened (the fitted history); null in the future. */
  actual: number | null;
  mean: number | null;
  band80: readonly [number, number] | null;
  band95: readonly [number, number] | null;
};

const units = (cents: number) => cents / 100;

export const periodLabel = (iso: string, frequency: 'WEEKLY' | 'MONTHLY'): string =>
  new Date(iso).toLocaleDateString(
    'en-US',
    frequency === 'MONTHLY'
      ? { month: 'short', year: 'numeric', timeZone: 'UTC' }
      : { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' },
  );

const bandOf = (point: ForecastPoint | CashInWeek, frequency: 'WEEKLY' | 'MONTHLY'): BandPoint => ({
  label: periodLabel(point.StartDate, frequency),
  actual: null,
  mean: units(point.mean),
  band80: [units(point.lower80), units(point.upper80)],
  band95: [units(point.lower95), units(point.upper95)],
});

/**
 * The last `historyShown` periods of history, then the forecast. The last actual also starts the
 * forecast line and its bands (at zero width), so the eye follows one line from past into future.
 */
export const revenueBandPoints = (forecast: RevenueForecast, historyShown: number): BandPoint[] => {
  const history: BandPoint[] = forecast.history.slice(-historyShown).map((point) => ({
    label: periodLabel(point.StartDate, forecast.frequency),
    actual: units(point.Value),
    mean: null,
    band80: null,
    band95: null,
  }));
  const last = history.at(-1);
  if (last && last.actual !== null && forecast.points.length > 0) {
    const joint = [last.actual, last.actual] as const;
    history[history.length - 1] = { ...last, mean: last.actual, band80: joint, band95: joint };
  }
  return [...history, ...forecast.points.map((point) => bandOf(point, forecast.frequency))];
};

export const cashInBandPoints = (weeks: readonly CashInWeek[]): BandPoint[] =>
  weeks.map((week) => bandOf(week, 'WEEKLY'));

/**
 * The sum of the weekly means in currency units. Only the mean adds up: the sum of the weeks' interval
 * bounds is not an interval of the sum, so totals are shown without one.
 */
export const expectedTotal = (points: readonly { mean: number }[]): number =>
  units(points.reduce((sum, point) => sum + point.mean, 0));
