import { Callout, Card, Text } from '@tremor/react';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router';
import type { OpenInvoiceForecast } from '../../../../contracts/api/forecasts';
import { ApiError } from '../../api/api-error';
import { useCustomerForecast } from '../../api/queries/forecasts';
import { useSeller } from '../../api/queries/platforms';
import { useCustomerInvoices } from '../../api/queries/receivables';
import { useTenant } from '../../api/queries/tenants';
import type { DataColumn } from '../../table/data-columns';
import { DataTable } from '../../table/data-table';
import { moneyFormatter } from '../dashboard/receivables-figures';
import { PageFrame, StatCard } from '../dashboard/stat-card';
import { BandChart } from './band-chart';
import { CustomerTransactionChart } from './customer-transaction-chart';
import { ForecastMissing, inlineLinkClasses } from './forecast-notice';
import { cashInBandPoints, expectedTotal } from './forecast-series';
import { dayText, daysOrDash, invoicesText } from './receivables-format';
import { routeId } from './seller-page';

const openInvoiceColumns = (money: (value: number) => string): DataColumn<OpenInvoiceForecast>[] => [
  { id: 'docNumber', header: 'Invoice', value: (row) => row.docNumber, sortable: true },
  {
    id: 'dueDate',
    header: 'Due',
    value: (row) => row.dueDate,
    sortable: true,
    hideOnMobile: true,
    cell: (row) => dayText(row.dueDate),
  },
  {
    id: 'balance',
    header: 'Open',
    value: (row) => row.balance,
    sortable: true,
    align: 'end',
    cell: (row) => money(row.balance / 100),
  },
  {
    id: 'expectedPayDate',
    header: 'Expected payment',
    value: (row) => row.expectedPayDate,
    sortable: true,
    cell: (row) => dayText(row.expectedPayDate),
  },
  {
    id: 'interval',
    header: '80% interval',
    hideOnMobile: true,
    cell: (row) => `${dayText(row.payDateLower80)} to ${dayText(row.payDateUpper80)}`,
  },
  {
    id: 'paidWithinHorizon',
    header: 'Paid within 13 weeks',
    value: (row) => row.paidWithinHorizon,
    sortable: true,
    hideOnMobile: true,
    align: 'end',
    cell: (row) => `${Math.round(row.paidWithinHorizon * 100)}%`,
  },
];

/** /sellers/{sellerId}/customers/{customerId}: one customer's invoices and expected cash-in. */
export const CustomerPage = () => {
  const params = useParams();
  const sellerId = routeId(params.sellerId);
  const customerId = routeId(params.customerId);
  if (sellerId === null || customerId === null)
    return (
      <PageFrame title="Customer">
        <p role="alert" className="text-sm text-red-700">
          This customer does not exist.
        </p>
      </PageFrame>
    );
  return <CustomerView key={`${sellerId}-${customerId}`} sellerId={sellerId} customerId={customerId} />;
};

const CustomerView = ({ sellerId, customerId }: { sellerId: number; customerId: number }) => {
  const seller = useSeller(sellerId);
  const tenant = useTenant();
  const invoices = useCustomerInvoices({ sellerId, customerId });
  const money = moneyFormatter(tenant.data?.Settings.Reporting.Currency ?? 'USD');
  const sellerName = seller.data ? (seller.data.CompanyName ?? seller.data.Provider) : 'the seller';
  const back = (
    <Link to={`/sellers/${sellerId}`} className={inlineLinkClasses}>
      Back to {sellerName}
    </Link>
  );

  if (invoices.isError)
    return (
      <PageFrame title="Customer">
        <p role="alert" className="text-sm text-red-700">
          {invoices.error instanceof ApiError && invoices.error.status === 404
            ? 'This customer does not exist or belongs to another company.'
            : invoices.error.message}
        </p>
        {back}
      </PageFrame>
    );
  if (!invoices.data)
    return (
      <PageFrame title="Customer">
        <p role="status" className="text-sm text-gray-600">
          Loading...
        </p>
      </PageFrame>
    );

  const customer = invoices.data;
  const open = customer.invoices.reduce((sum, invoice) => sum + invoice.balance, 0);
  const latestDbt = customer.invoices.at(-1)?.movingAvgDbtDays ?? null;
  return (
    <PageFrame title={customer.name}>
      <Text>
        Customer of {sellerName}
        {customer.email ? ` · ${customer.email}` : ''} · {back}
      </Text>
      {customer.excluded && (
        <Callout title="Left out of the seller's figures" color="amber">
          The seller&apos;s exclusions leave this customer out of every metric and forecast; its invoices are
          shown as they are.
        </Callout>
      )}
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard label="Invoices" value={customer.invoices.length} />
        <StatCard label="Open balance" value={money(open / 100)} />
        <StatCard label="MovingAvg DBT" value={daysOrDash(latestDbt)} />
      </div>
      <section aria-labelledby="transactions-title">
        <Card>
          <h2 id="transactions-title" className="text-tremor-title font-medium text-tremor-content-strong">
            Transactions
          </h2>
          <div className="mt-4">
            <CustomerTransactionChart name={customer.name} invoices={customer.invoices} money={money} />
          </div>
        </Card>
      </section>
      <ExpectedCashIn sellerId={sellerId} customerId={customerId} money={money} />
    </PageFrame>
  );
};

const ExpectedCashIn = ({
  sellerId,
  customerId,
  money,
}: {
  sellerId: number;
  customerId: number;
  money: (value: number) => string;
}) => {
  const forecast = useCustomerForecast({ sellerId, customerId });
  const columns = useMemo(() => openInvoiceColumns(money), [money]);
  const data = forecast.data;
  return (
    <section aria-labelledby="cash-in-title">
      <Card>
        <h2 id="cash-in-title" className="text-tremor-title font-medium text-tremor-content-strong">
          Expected cash-in
        </h2>
        {forecast.isError && (
          <p role="alert" className="mt-3 text-sm text-red-700">
            {forecast.error.message}
          </p>
        )}
        {forecast.isPending && (
          <p role="status" className="mt-3 text-sm text-gray-600">
            Loading...
          </p>
        )}
        {data && data.issuedAt === null && (
          <ForecastMissing enabled={data.enabled} what="collections forecast" />
        )}
        {data && data.issuedAt !== null && data.invoices.length === 0 && (
          <Text className="mt-3">
            Nothing to collect: this customer had no open invoice on {dayText(data.asOf)}.
          </Text>
        )}
        {data && data.issuedAt !== null && data.invoices.length > 0 && (
          <>
            <Text className="mt-2">
              {money(expectedTotal(data.weeks))} expected in the next 13 weeks from{' '}
              {invoicesText(data.invoices.length)} open, forecast on {dayText(data.asOf)}.
            </Text>
            <BandChart
              points={cashInBandPoints(data.weeks)}
              caption="Expected cash-in by week"
              money={money}
            />
            <div className="mt-4">
              <DataTable
                label="Open invoices and their expected payment"
                data={data.invoices}
                columns={columns}
                getRowId={(row) => row.providerId}
                initialSort={{ id: 'expectedPayDate' }}
              />
            </div>
          </>
        )}
      </Card>
    </section>
  );
};
