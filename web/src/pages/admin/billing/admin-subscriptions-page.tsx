import { Button, Card } from '@tremor/react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { AdminBillingSubscription } from '../../../../../contracts/api/billing';
import { PaymentStatus } from '../../../../../contracts/events/billing';
import { TenantClassification } from '../../../../../contracts/events/tenant';
import { useAdminPlans, useAdminSubscriptions } from '../../../api/queries/admin-billing';
import { ErrorCallout, SuccessCallout } from '../../../components/error-callout';
import { TextBadge, type BadgeTone } from '../../../components/text-badge';
import { TextLink } from '../../../components/text-link';
import { useTimedMessage } from '../../../components/use-timed-message';
import { SelectField } from '../../../forms/select-field';
import type { DataColumn } from '../../../table/data-columns';
import { DataTable } from '../../../table/data-table';
import { tableTexts } from '../../../table/empty-texts';
import { PageFrame, StatCard } from '../../dashboard/stat-card';
import { useDebouncedValue } from '../../sellers/use-debounced-value';
import { paymentMethodLabels } from './subscription-edit-rules';
import { SubscriptionEditModal } from './subscription-edit-modal';

const statusTones: Partial<Record<PaymentStatus, BadgeTone>> = {
  active: 'green',
  trialing: 'blue',
  past_due: 'red',
  unpaid: 'red',
  canceled: 'gray',
  incomplete: 'amber',
  incomplete_expired: 'gray',
  paused: 'amber',
};

const dayText = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

const columns: DataColumn<AdminBillingSubscription>[] = [
  {
    id: 'Tenant',
    header: 'Tenant',
    value: (row) => row.Tenant.Name ?? `Tenant ${row.TenantId}`,
    cell: (row) => (
      <TextLink to={`/admin/tenants/${row.TenantId}`}>{row.Tenant.Name ?? `Tenant ${row.TenantId}`}</TextLink>
    ),
    sortable: true,
  },
  {
    id: 'BillingTenant',
    header: 'Billing tenant',
    value: (row) => (row.Direct ? 'Self' : (row.BillingTenant.Name ?? `Tenant ${row.BillingTenantId}`)),
    sortable: true,
    hideOnMobile: true,
  },
  { id: 'Plan', header: 'Plan', value: (row) => row.Plan.Name, sortable: true },
  {
    id: 'Start',
    header: 'Start',
    value: (row) => dayText(row.StartedAt),
    sortable: true,
    hideOnMobile: true,
  },
  {
    id: 'Churn',
    header: 'Churn',
    value: (row) => dayText(row.InactiveAt),
    sortable: true,
    hideOnMobile: true,
  },
  {
    id: 'PaymentStatus',
    header: 'Payment status',
    value: (row) => row.PaymentStatus,
    cell: (row) => <TextBadge tone={statusTones[row.PaymentStatus] ?? 'gray'}>{row.PaymentStatus}</TextBadge>,
    sortable: true,
  },
  {
    id: 'PaymentMethod',
    header: 'Payment method',
    value: (row) => (row.PaymentMethod ? paymentMethodLabels[row.PaymentMethod] : 'None'),
    sortable: true,
    hideOnMobile: true,
  },
];

/** The query string the spec keeps (admin.md section 2): filter, classification, plan, payment status, planName. */
const listOf = (value: string | null) => (value ? value.split(',').filter(Boolean) : []);

/**
 * Admin Billing Subscriptions (admin.md section 2): every tenant's subscription, searched and filtered
 * on the server by classification, plan and payment status, the filters kept in the address so a
 * link reopens the same list; each row opens the edit-subscription modal.
 */
export const AdminSubscriptionsPage = () => {
  const [params, setParams] = useSearchParams();
  const search = params.get('filter') ?? '';
  const classification = params.get('classification') ?? '';
  const plan = params.get('plan') ?? '';
  const paymentStatus = params.get('paymentStatus') ?? '';
  const [typed, setTyped] = useState(search);
  const debounced = useDebouncedValue(typed, 300);
  const [editing, setEditing] = useState<AdminBillingSubscription | null>(null);
  const [message, showMessage] = useTimedMessage();
  const plans = useAdminPlans();
  const filters = {
    search: debounced,
    classification,
    plans: listOf(plan),
    paymentStatuses: listOf(paymentStatus),
  };
  const subscriptions = useAdminSubscriptions(filters);

  const setParam = (name: string, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === '') next.delete(name);
        else next.set(name, value);
        if (name === 'plan') {
          const chosen = plans.data?.plans.find((p) => p.Identifier === value);
          if (chosen) next.set('planName', chosen.Name);
          else next.delete('planName');
        }
        return next;
      },
      { replace: true },
    );
  // The search reaches the address (and the server) once typing pauses.
  useEffect(() => {
    if (debounced !== search) setParam('filter', debounced);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- setParam changes every render; the values decide.
  }, [debounced, search]);

  const narrowed = search !== '' || classification !== '' || plan !== '' || paymentStatus !== '';
  const rows = subscriptions.data?.rows;
  const reset = () => {
    setTyped('');
    setParams(new URLSearchParams(), { replace: true });
  };

  return (
    <PageFrame title="Subscriptions">
      <SuccessCallout message={message} />
      <ErrorCallout message={subscriptions.error ? subscriptions.error.message : null} />
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard label="Total" value={subscriptions.data?.total ?? '...'} />
        <StatCard label="Filtered" value={subscriptions.data?.filtered ?? '...'} />
        <StatCard
          label="Trialing"
          value={rows ? rows.filter((row) => row.PaymentStatus === 'trialing').length : '...'}
        />
      </div>
      <Card>
        <div className="mb-4 grid gap-3 sm:grid-cols-4">
          <div className="space-y-1">
            <label htmlFor="subscription-search" className="block text-sm font-medium text-gray-700">
              Search
            </label>
            <input
              id="subscription-search"
              type="search"
              className="w-full rounded-md border border-gray-300 px-3 py-2 text-sm"
              value={typed}
              placeholder="Tenant or plan"
              onChange={(event) => setTyped(event.target.value)}
            />
          </div>
          <SelectField
            name="classification"
            label="Classification"
            value={classification}
            onValueChange={(value) => setParam('classification', value)}
            options={TenantClassification.options.map((value) => ({ value, label: value }))}
            blankLabel="All"
          />
          <SelectField
            name="plan"
            label="Plan"
            value={plan}
            onValueChange={(value) => setParam('plan', value)}
            options={(plans.data?.plans ?? []).map((p) => ({ value: p.Identifier, label: p.Name }))}
            blankLabel="All"
          />
          <SelectField
            name="paymentStatus"
            label="Payment status"
            value={paymentStatus}
            onValueChange={(value) => setParam('paymentStatus', value)}
            options={PaymentStatus.options.map((value) => ({ value, label: value }))}
            blankLabel="All"
          />
        </div>
        <DataTable
          label="Subscriptions"
          data={rows}
          columns={columns}
          getRowId={(row) => String(row.Id)}
          emptyText={tableTexts.noData}
          noMatchText="No Subscriptions Found"
          filtered={narrowed}
          initialSort={{ id: 'Tenant' }}
          pageSize={20}
          toolbar={
            <Button variant="secondary" onClick={reset} disabled={!narrowed && typed === ''}>
              Reset Filters
            </Button>
          }
          rowActions={(row) => (
            <Button
              size="xs"
              variant="secondary"
              onClick={() => setEditing(row)}
              aria-label={`Edit subscription of ${row.Tenant.Name ?? row.TenantId}`}
            >
              Edit
            </Button>
          )}
        />
      </Card>
      {editing && (
        <SubscriptionEditModal
          subscription={editing}
          onClose={() => setEditing(null)}
          onSaved={(text) => {
            setEditing(null);
            showMessage(text);
          }}
        />
      )}
    </PageFrame>
  );
};
