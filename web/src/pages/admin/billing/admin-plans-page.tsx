import { Card } from '@tremor/react';
import type { Plan } from '../../../../../contracts/api/billing';
import { useAdminPlans } from '../../../api/queries/admin-billing';
import { ErrorCallout } from '../../../components/error-callout';
import { TextBadge } from '../../../components/text-badge';
import { TextLink } from '../../../components/text-link';
import type { DataColumn } from '../../../table/data-columns';
import { DataTable } from '../../../table/data-table';
import { tableTexts } from '../../../table/empty-texts';
import { PageFrame } from '../../dashboard/stat-card';

const columns: DataColumn<Plan>[] = [
  {
    id: 'Identifier',
    header: 'Identifier',
    value: (plan) => plan.Identifier,
    sortable: true,
    searchable: true,
  },
  { id: 'Name', header: 'Name', value: (plan) => plan.Name, sortable: true, searchable: true },
  { id: 'Classification', header: 'Classification', value: (plan) => plan.Classification, sortable: true },
  {
    id: 'Active',
    header: 'Active',
    value: (plan) => plan.Active,
    cell: (plan) => (
      <TextBadge tone={plan.Active ? 'green' : 'gray'}>{plan.Active ? 'Active' : 'Inactive'}</TextBadge>
    ),
    sortable: true,
  },
  {
    id: 'TrialPeriod',
    header: 'Trial days',
    value: (plan) => plan.TrialPeriod,
    sortable: true,
    align: 'end',
    hideOnMobile: true,
  },
  {
    id: 'Products',
    header: 'Products',
    value: (plan) => plan.Products.map((product) => product.Identifier).join(', '),
    hideOnMobile: true,
  },
  {
    id: 'Subscriptions',
    header: 'Subscriptions',
    value: (plan) => plan.Subscriptions ?? 0,
    // The subscriptions list filtered to the plan, with its name kept for the filter's label.
    cell: (plan) => (
      <TextLink
        to={`/admin/subscriptions?${new URLSearchParams({ plan: plan.Identifier, planName: plan.Name }).toString()}`}
      >
        {plan.Subscriptions ?? 0}
      </TextLink>
    ),
    sortable: true,
    align: 'end',
  },
];

/** The admin plans table (admin.md section 2): the catalogue with how many subscribe to each plan. */
export const AdminPlansPage = () => {
  const plans = useAdminPlans();
  return (
    <PageFrame title="Plans">
      <ErrorCallout message={plans.error ? plans.error.message : null} />
      <Card>
        <DataTable
          label="Plans"
          data={plans.data?.plans}
          columns={columns}
          getRowId={(plan) => String(plan.Id)}
          emptyText={tableTexts.noData}
          searchLabel="Search plans"
          initialSort={{ id: 'Classification' }}
          pageSize={50}
        />
      </Card>
    </PageFrame>
  );
};
