import { Card, Grid, Metric, Text } from '@tremor/react';
import { Link } from 'react-router';
import type { SellerResponse } from '../../../../contracts/api/sellers';
import type { Currency } from '../../../../contracts/events/tenant';
import { useSellerForecasts } from '../../api/queries/forecasts';
import { expectedTotal } from '../sellers/forecast-series';
import { moneyFormatter } from './receivables-figures';
import { cardLinkClasses } from './stat-card';

/**
 * A synced seller's next 13 weeks on the dashboard: the revenue forecast and the cash expected in from
 * its open invoices, with the way to the seller page where both are charted with their intervals.
 */
export const ForecastCard = ({ seller, currency }: { seller: SellerResponse; currency: Currency }) => {
  const forecasts = useSellerForecasts(seller.Id);
  const money = moneyFormatter(currency);
  const name = seller.CompanyName ?? seller.Provider;
  const titleId = `forecast-${seller.Id}`;
  const weekly = forecasts.data?.revenue.weekly;
  const collections = forecasts.data?.collections;
  const missing = forecasts.data
    ? forecasts.data.enabled
      ? 'Not yet forecast: the next completed sync issues it.'
      : 'Forecasting is off for this seller.'
    : '—';

  return (
    <section aria-labelledby={titleId}>
      <Card>
        <h2 id={titleId} className="text-tremor-title font-medium text-tremor-content-strong">
          Forecast: {name}
        </h2>
        {forecasts.isError && (
          <p role="alert" className="mt-3 text-sm text-red-700">
            {forecasts.error.message}
          </p>
        )}
        {forecasts.isPending && (
          <p role="status" className="mt-3 text-sm text-gray-600">
            Loading...
          </p>
        )}
        {forecasts.data && (
          <Grid numItemsSm={2} className="mt-4 gap-4">
            <div>
              <Text>Revenue forecast, next 13 weeks</Text>
              {weekly ? <Metric>{money(expectedTotal(weekly.points))}</Metric> : <Text>{missing}</Text>}
            </div>
            <div>
              <Text>Expected cash-in, next 13 weeks</Text>
              {collections ? (
                <Metric>{money(expectedTotal(collections.weeks))}</Metric>
              ) : (
                <Text>{missing}</Text>
              )}
            </div>
          </Grid>
        )}
        <div className="mt-4">
          <Link to={`/sellers/${seller.Id}`} className={cardLinkClasses}>
            Open {name}
          </Link>
        </div>
      </Card>
    </section>
  );
};
