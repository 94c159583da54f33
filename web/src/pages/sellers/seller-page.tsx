import { Callout, Card, Text } from '@tremor/react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { useSellerForecasts } from '../../api/queries/forecasts';
import { useSeller } from '../../api/queries/platforms';
import { useSellerAging } from '../../api/queries/receivables';
import { useTenant } from '../../api/queries/tenants';
import { PageFrame } from '../dashboard/stat-card';
import { moneyFormatter } from '../dashboard/receivables-figures';
import { AgingCard } from './aging-card';
import { CollectionsForecastCard } from './collections-forecast-card';
import { CustomersTable } from './customers-table';
import { DsoTrendCard } from './dso-trend-card';
import { inlineLinkClasses } from './forecast-notice';
import { RevenueForecastCard } from './revenue-forecast-card';
import { SellerKpis } from './seller-kpis';

/** A positive integer id from the route, or null for anything else (`/sellers/abc`). */
export const routeId = (text: string | undefined): number | null => {
  const id = Number(text);
  return Number.isInteger(id) && id > 0 ? id : null;
};

/** /sellers/{sellerId}: a seller's receivables, forecasts and customers (issue 15). */
export const SellerPage = () => {
  const sellerId = routeId(useParams().sellerId);
  if (sellerId === null)
    return (
      <PageFrame title="Seller">
        <p role="alert" className="text-sm text-red-700">
          This seller does not exist.
        </p>
      </PageFrame>
    );
  return <SellerView key={sellerId} sellerId={sellerId} />;
};

const SellerView = ({ sellerId }: { sellerId: number }) => {
  const seller = useSeller(sellerId);
  const tenant = useTenant();
  const money = moneyFormatter(tenant.data?.Settings.Reporting.Currency ?? 'USD');

  if (seller.isError)
    return (
      <PageFrame title="Seller">
        <p role="alert" className="text-sm text-red-700">
          {seller.error instanceof ApiError && seller.error.status === 404
            ? 'This seller does not exist or belongs to another company.'
            : seller.error.message}
        </p>
      </PageFrame>
    );
  if (!seller.data)
    return (
      <PageFrame title="Seller">
        <p role="status" className="text-sm text-gray-600">
          Loading...
        </p>
      </PageFrame>
    );

  const name = seller.data.CompanyName ?? seller.data.Provider;
  return (
    <PageFrame title={name}>
      <Text>
        {seller.data.Provider} · {seller.data.Status.text}
        {seller.data.MetricsDate && ` · figures as of ${new Date(seller.data.MetricsDate).toLocaleString()}`}
      </Text>
      {seller.data.MetricsDate === null ? (
        <NotSyncedYet syncing={seller.data.Progress !== 'completed' && seller.data.ProgressBadge !== null} />
      ) : (
        <SellerAnalytics sellerId={sellerId} money={money} />
      )}
    </PageFrame>
  );
};

/** Before the first metrics run there is nothing to chart: say what brings the figures. */
const NotSyncedYet = ({ syncing }: { syncing: boolean }) => (
  <Callout title={syncing ? 'Your data is on its way' : 'No figures yet'} color="blue">
    {syncing ? (
      'The first sync is running; the figures, forecasts and customers appear here when it completes.'
    ) : (
      <>
        Figures, forecasts and customers appear after the seller&apos;s first completed sync.{' '}
        <Link to="/platforms" className={inlineLinkClasses}>
          Run a sync from Platforms
        </Link>
        .
      </>
    )}
  </Callout>
);

const SellerAnalytics = ({ sellerId, money }: { sellerId: number; money: (value: number) => string }) => {
  const forecasts = useSellerForecasts(sellerId);
  const aging = useSellerAging(sellerId, null);

  return (
    <>
      <SellerKpis sellerId={sellerId} aging={aging.data} forecasts={forecasts.data} money={money} />
      {forecasts.isError && (
        <Card>
          <h2 className="text-tremor-title font-medium text-tremor-content-strong">Forecasts</h2>
          <p role="alert" className="mt-2 text-sm text-red-700">
            {forecasts.error.message}
          </p>
        </Card>
      )}
      {forecasts.isPending && (
        <p role="status" className="text-sm text-gray-600">
          Loading...
        </p>
      )}
      {forecasts.data && (
        <>
          <RevenueForecastCard forecasts={forecasts.data} money={money} />
          <CollectionsForecastCard forecasts={forecasts.data} money={money} />
        </>
      )}
      <div className="grid gap-6 lg:grid-cols-2">
        <AgingCard sellerId={sellerId} money={money} />
        <DsoTrendCard sellerId={sellerId} />
      </div>
      <section aria-labelledby="customers-title" className="space-y-3">
        <h2 id="customers-title" className="text-tremor-title font-medium text-tremor-content-strong">
          Customers
        </h2>
        <CustomersTable sellerId={sellerId} money={money} />
      </section>
    </>
  );
};
