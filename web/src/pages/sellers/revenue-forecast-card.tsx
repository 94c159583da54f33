import { Card, Text } from '@tremor/react';
import { useState } from 'react';
import type { RevenueFrequency, SellerForecastsResponse } from '../../../../contracts/api/forecasts';
import { BandChart } from './band-chart';
import { ForecastMissing } from './forecast-notice';
import { expectedTotal, revenueBandPoints } from './forecast-series';
import { dayText } from './receivables-format';

/** History shown before the forecast: a year of weeks, two years of months. */
const historyShown: Record<RevenueFrequency, number> = { WEEKLY: 52, MONTHLY: 24 };
const horizonTexts: Record<RevenueFrequency, string> = {
  WEEKLY: 'next 13 weeks',
  MONTHLY: 'next 12 months',
};

const toggleClasses = (pressed: boolean) =>
  `rounded-md border px-3 py-1 text-sm font-medium focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600 ${
    pressed
      ? 'border-blue-700 bg-blue-700 text-white'
      : 'border-gray-300 bg-white text-gray-800 hover:bg-gray-50'
  }`;

/** Revenue by week or month, then its forecast with 80 and 95 percent intervals. */
export const RevenueForecastCard = ({
  forecasts,
  money,
}: {
  forecasts: SellerForecastsResponse;
  money: (value: number) => string;
}) => {
  const [frequency, setFrequency] = useState<RevenueFrequency>('WEEKLY');
  const forecast = frequency === 'WEEKLY' ? forecasts.revenue.weekly : forecasts.revenue.monthly;

  return (
    <section aria-labelledby="revenue-forecast-title">
      <Card>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <h2
            id="revenue-forecast-title"
            className="text-tremor-title font-medium text-tremor-content-strong"
          >
            Revenue forecast
          </h2>
          <div role="group" aria-label="Revenue by" className="flex gap-2">
            {(['WEEKLY', 'MONTHLY'] as const).map((option) => (
              <button
                key={option}
                type="button"
                aria-pressed={frequency === option}
                onClick={() => setFrequency(option)}
                className={toggleClasses(frequency === option)}
              >
                {option === 'WEEKLY' ? 'Weekly' : 'Monthly'}
              </button>
            ))}
          </div>
        </div>
        {forecast ? (
          <>
            <Text className="mt-2">
              {money(expectedTotal(forecast.points))} expected in the {horizonTexts[frequency]}, forecast on{' '}
              {dayText(forecast.asOf)} ({forecast.method}).
            </Text>
            <BandChart
              points={revenueBandPoints(forecast, historyShown[frequency])}
              actualName="History"
              caption={`Revenue by ${frequency === 'WEEKLY' ? 'week' : 'month'}: history and forecast`}
              money={money}
            />
          </>
        ) : (
          <ForecastMissing enabled={forecasts.enabled} what="revenue forecast" />
        )}
      </Card>
    </section>
  );
};
