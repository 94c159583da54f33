import { AreaChart } from '@tremor/react';
import { ChartFrame } from './chart-frame';
import type { BandPoint } from './forecast-series';

const bandText = (band: BandPoint['band80'], money: (value: number) => string) =>
  band ? `${money(band[0])} to ${money(band[1])}` : '';

/**
 * Actuals, the forecast's mean and its 80 and 95 percent intervals in one Tremor area chart: an
 * interval is a range area (recharts draws an area between the two values of a [low, high] pair), so
 * the bands sit around the mean instead of filling down to zero.
 */
export const BandChart = ({
  points,
  actualName,
  caption,
  money,
}: {
  points: readonly BandPoint[];
  /** What the actuals are called in the legend and table (History, Paid). */
  actualName?: string;
  caption: string;
  money: (value: number) => string;
}) => {
  const hasActuals = actualName !== undefined && points.some((point) => point.actual !== null);
  const categories = ['95% interval', '80% interval', 'Forecast', ...(hasActuals ? [actualName] : [])];
  const data = points.map((point) => ({
    period: point.label,
    '95% interval': point.band95 ?? undefined,
    '80% interval': point.band80 ?? undefined,
    Forecast: point.mean ?? undefined,
    ...(hasActuals ? { [actualName]: point.actual ?? undefined } : {}),
  }));
  return (
    <ChartFrame
      chart={
        <AreaChart
          className="mt-4 h-72"
          data={data}
          index="period"
          categories={categories}
          colors={['sky', 'blue', 'indigo', 'slate']}
          valueFormatter={money}
          yAxisWidth={72}
          showGradient={false}
          showTooltip={false}
          connectNulls={false}
        />
      }
      caption={caption}
      headers={['Period', ...(hasActuals ? [actualName] : []), 'Forecast', '80% interval', '95% interval']}
      rows={points.map((point) => [
        point.label,
        ...(hasActuals ? [point.actual === null ? '' : money(point.actual)] : []),
        point.mean === null || point.actual !== null ? '' : money(point.mean),
        point.actual !== null ? '' : bandText(point.band80, money),
        point.actual !== null ? '' : bandText(point.band95, money),
      ])}
    />
  );
};
