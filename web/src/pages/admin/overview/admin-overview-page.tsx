import { useAdminStats } from '../../../api/queries/admin-overview';
import { ErrorCallout } from '../../../components/error-callout';
import { ExternalLink, TextLink } from '../../../components/text-link';
import { PageFrame, StatCard } from '../../dashboard/stat-card';

const count = (value: number) => value.toLocaleString('en-US');

/** Invoice amounts are stored in cents; the platform-wide total is shown in dollars. */
export const centsText = (cents: number) =>
  (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/**
 * /admin/overview (admin.md section 2, Admin dashboard): the platform's counts from GET /api/stats,
 * and the Key Metrics spreadsheet (the same figures with the 36 months behind the T36M cards).
 */
export const AdminOverviewPage = () => {
  const stats = useAdminStats();
  const s = stats.data?.stats;
  const value = (pick: (stats: NonNullable<typeof s>) => string) => (s ? pick(s) : '…');
  return (
    <PageFrame title="Admin Overview">
      {stats.isError && <ErrorCallout message={stats.error.message} />}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy={!s}>
        <StatCard label="Key Metrics" value="36 months">
          <ExternalLink href="/api/stats/key-metrics" download>
            Download spreadsheet (.xlsx)
          </ExternalLink>
        </StatCard>
        <StatCard label="Partners" value={value((x) => count(x.partners))}>
          <TextLink to="/admin/partners">Partners</TextLink>
        </StatCard>
        <StatCard
          label="Sellers (active and inactive)"
          value={value((x) => `${count(x.activeSellers)} / ${count(x.inactiveSellers)}`)}
        >
          <TextLink to="/admin/sellers">Sellers</TextLink>
        </StatCard>
        <StatCard
          label="Tenants (businesses and firms)"
          value={value((x) => `${count(x.businesses)} / ${count(x.firms)}`)}
        >
          <TextLink to="/admin/tenants">Tenants</TextLink>
        </StatCard>
        <StatCard label="Customers (T36M)" value={value((x) => count(x.customers))} />
        <StatCard label="Invoices (T36M)" value={value((x) => count(x.invoices))} />
        <StatCard label="Invoice Sales (T36M)" value={value((x) => centsText(x.invoiceRevenue))} />
        <StatCard label="Sales (All Time)" value={value((x) => centsText(x.salesAllTime))} />
        <StatCard label="Direct Subscriptions" value={value((x) => count(x.directSubscriptions))} />
        <StatCard label="Channel Subscriptions" value={value((x) => count(x.channelSubscriptions))} />
        <StatCard label="Trial Subscriptions" value={value((x) => count(x.trialSubscriptions))} />
      </div>
    </PageFrame>
  );
};
