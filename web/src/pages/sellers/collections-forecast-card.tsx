import { Card, Text } from '@tremor/react';
import type { SellerForecastsResponse } from '../../../../contracts/api/forecasts';
import { BandChart } from './band-chart';
import { ForecastMissing } from './forecast-notice';
import { cashInBandPoints, expectedTotal } from './forecast-series';
import { dayText, invoicesText } from './receivables-format';

/** Expected cash-in per week from the open invoices, with 80 and 95 percent intervals. */
export const CollectionsForecastCard = ({
  forecasts,
  money,
}: {
  forecasts: SellerForecastsResponse;
  money: (value: number) => string;
}) => {
  const collections = forecasts.collections;
  return (
    <section aria-labelledby="collections-forecast-title">
      <Card>
        <h2
          id="collections-forecast-title"
          className="text-tremor-title font-medium text-tremor-content-strong"
        >
          Collections forecast
        </h2>
        {!collections ? (
          <ForecastMissing enabled={forecasts.enabled} what="collections forecast" />
        ) : collections.openInvoices === 0 ? (
          <Text className="mt-3">
            Nothing to collect: every invoice was paid as of {dayText(collections.asOf)}.
          </Text>
        ) : (
          <>
            <Text className="mt-2">
              {money(expectedTotal(collections.weeks))} of the {money(collections.openBalance / 100)} open in{' '}
              {invoicesText(collections.openInvoices)} is expected in the next 13 weeks;{' '}
              {money(collections.beyondHorizon / 100)} later or not at all. Forecast on{' '}
              {dayText(collections.asOf)}.
            </Text>
            <BandChart
              points={cashInBandPoints(collections.weeks)}
              caption="Expected cash-in by week"
              money={money}
            />
          </>
        )}
      </Card>
    </section>
  );
};
