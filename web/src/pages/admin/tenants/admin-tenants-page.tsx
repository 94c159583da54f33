import { Button, Card } from '@tremor/react';
import { useState } from 'react';
import { TenantClassification, UsageType } from '../../../../../contracts/events/tenant';
import { TenantSortField } from '../../../../../contracts/api/tenants';
import {
  initialTenantsView,
  isNarrowed,
  useAdminTenant,
  useAdminTenants,
  useRefreshAdminTenants,
  type AdminTenantsView,
  type TenantListRow,
} from '../../../api/queries/admin-tenants';
import { ErrorCallout, SuccessCallout } from '../../../components/error-callout';
import { ModalDialog } from '../../../components/modal-dialog';
import { ExternalLink, TextLink } from '../../../components/text-link';
import { useTimedMessage } from '../../../components/use-timed-message';
import { SelectField } from '../../../forms/select-field';
import { useAppServices } from '../../../session/app-services-context';
import { switchToTenant } from '../../../session/session-actions';
import type { DataColumn } from '../../../table/data-columns';
import { DataTable } from '../../../table/data-table';
import { tableTexts } from '../../../table/empty-texts';
import { PageFrame, StatCard } from '../../dashboard/stat-card';
import { useDebouncedValue } from '../../sellers/use-debounced-value';
import { NewTenantModal } from './new-tenant-modal';
import { TenantActionModal, type TenantActionKind } from './tenant-action-modal';
import { TenantDetails } from './tenant-details';
import { TenantEditTabs } from './tenant-edit-tabs';
import {
  classificationLabels,
  dangerButtonClasses,
  tenantMarketingLink,
  rowsNotice,
  tablePaging,
  tenantRowActions,
  usageTypeLabels,
  withHttp,
} from './tenant-rules';

const SEARCH_PAUSE_MS = 300;

/** admin.md section 8. */
export const switchTenantFailed = 'There was an error while switching to a different tenant.';

const usageOptions = UsageType.options.map((value) => ({ value, label: usageTypeLabels[value] }));
const classificationOptions = TenantClassification.options.map((value) => ({
  value,
  label: classificationLabels[value],
}));
const yesNo = [
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];
const flagOf = (value: string): boolean | null => (value === '' ? null : value === 'true');

const dateText = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

const columns: DataColumn<TenantListRow>[] = [
  { id: 'Id', header: 'Id', value: (row) => row.Id, sortable: true },
  {
    id: 'Name',
    header: 'Name',
    value: (row) => row.Name,
    sortable: true,
    cell: (row) => (
      <>
        <TextLink to={`/admin/tenants/${row.Id}`}>{row.Name}</TextLink>
        {row.status !== 'active' && (
          <span className="ml-2 rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-800 ring-1 ring-inset ring-red-600/30">
            Disabled
          </span>
        )}
      </>
    ),
  },
  {
    id: 'Partner',
    header: 'Partner',
    value: (row) => row.AdvisoryPartner?.Name ?? null,
    hideOnMobile: true,
  },
  { id: 'Referrer', header: 'Referrer', value: (row) => row.Referrer, sortable: true, hideOnMobile: true },
  {
    id: 'LandingPage',
    header: 'Landing Page',
    value: (row) => row.LandingPage,
    sortable: true,
    hideOnMobile: true,
    cell: (row) =>
      row.LandingPage ? (
        <ExternalLink href={withHttp(row.LandingPage)} target="_blank" rel="noreferrer">
          {row.LandingPage}
        </ExternalLink>
      ) : null,
  },
  {
    id: 'createdAt',
    header: 'Signup date',
    value: (row) => row.createdAt,
    sortable: true,
    hideOnMobile: true,
    cell: (row) => dateText(row.createdAt),
  },
  {
    id: 'UsageType',
    header: 'Type',
    value: (row) => row.UsageType,
    sortable: true,
    hideOnMobile: true,
    cell: (row) => usageTypeLabels[row.UsageType],
  },
  {
    id: 'Classification',
    header: 'Classification',
    value: (row) => row.Classification,
    sortable: true,
    hideOnMobile: true,
    cell: (row) => classificationLabels[row.Classification],
  },
  { id: 'userCount', header: 'Users', value: (row) => row.userCount, sortable: true, align: 'end' },
  {
    id: 'activeSellerCount',
    header: 'Active sellers',
    value: (row) => row.activeSellerCount,
    sortable: true,
    align: 'end',
    hideOnMobile: true,
  },
];

const isSortField = (id: string) => TenantSortField.safeParse(id);

/** The edit-tenant modal: the page's tabs over the chosen tenant. */
const EditTenantModal = ({ tenantId, onClose }: { tenantId: number; onClose: () => void }) => {
  const tenant = useAdminTenant(tenantId);
  return (
    <ModalDialog open title="Edit Tenant" width="wide" onClose={onClose}>
      {tenant.isError && <ErrorCallout message={tenant.error.message} />}
      {!tenant.data && !tenant.isError && <p role="status">{tableTexts.loading}</p>}
      {tenant.data && <TenantEditTabs tenant={tenant.data} />}
      <div className="flex justify-end">
        <Button type="button" variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
    </ModalDialog>
  );
};

/**
 * /admin/tenants (admin.md section 2): summary cards, search, filters and sorting done by the
 * server, 20 a page while nothing narrows the list, row actions and expandable rows.
 */
export const AdminTenantsPage = () => {
  const services = useAppServices();
  const refresh = useRefreshAdminTenants();
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput, SEARCH_PAUSE_MS);
  const [choice, setChoice] = useState<Omit<AdminTenantsView, 'search'>>(initialTenantsView);
  const view: AdminTenantsView = { ...choice, search };

  // A new search starts again at the first page (adjusted during render, not in an effect).
  const [pageSearch, setPageSearch] = useState(search);
  if (pageSearch !== search) {
    setPageSearch(search);
    setChoice((current) => ({ ...current, pageIndex: 0 }));
  }

  const tenants = useAdminTenants(view);
  const [notice, setNotice] = useTimedMessage();
  const [failure, setFailure] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const [acting, setActing] = useState<{ tenant: TenantListRow; kind: TenantActionKind } | null>(null);

  const narrow = (change: Partial<AdminTenantsView>) =>
    setChoice((current) => ({ ...current, ...change, pageIndex: 0 }));

  const switchTo = async (tenantId: number) => {
    setFailure(null);
    try {
      await switchToTenant(services, { tenantId, to: '/overview' });
    } catch {
      setFailure(switchTenantFailed);
    }
  };

  const rows = tenants.isError ? [] : tenants.data?.rows;
  const paged = tenants.data?.pagination != null;
  const paging = tablePaging({ rows: rows?.length ?? 0, total: tenants.data?.total ?? 0, paged });
  const limitNotice = tenants.data
    ? rowsNotice({ shown: tenants.data.rows.length, total: tenants.data.total, paged })
    : null;
  const summary = tenants.data?.summary;
  const narrowed = isNarrowed(view);

  const rowActions = (row: TenantListRow) => {
    const allowed = tenantRowActions(row);
    return (
      <>
        {allowed.switchTo && (
          <Button
            size="xs"
            variant="secondary"
            aria-label={`Switch to ${row.Name}`}
            onClick={() => void switchTo(row.Id)}
          >
            Switch
          </Button>
        )}
        <ExternalLink
          href={tenantMarketingLink(row)}
          target="_blank"
          rel="noreferrer"
          aria-label={`Marketing contact of ${row.Name}`}
        >
          Contact
        </ExternalLink>
        <TextLink
          to={`/admin/tenants/${row.Id}/audit?name=${encodeURIComponent(row.Name)}`}
          aria-label={`Audit history of ${row.Name}`}
        >
          Audit
        </TextLink>
        <Button
          size="xs"
          variant="secondary"
          aria-label={`Edit ${row.Name}`}
          onClick={() => setEditing(row.Id)}
        >
          Edit
        </Button>
        {allowed.disable && (
          <button
            type="button"
            className={dangerButtonClasses}
            aria-label={`Disable ${row.Name}`}
            onClick={() => setActing({ tenant: row, kind: 'disable' })}
          >
            Disable
          </button>
        )}
        {allowed.restore && (
          <Button
            size="xs"
            variant="secondary"
            aria-label={`Restore ${row.Name}`}
            onClick={() => setActing({ tenant: row, kind: 'restore' })}
          >
            Restore
          </Button>
        )}
        {allowed.purge && (
          <button
            type="button"
            className={dangerButtonClasses}
            aria-label={`Purge ${row.Name}`}
            onClick={() => setActing({ tenant: row, kind: 'purge' })}
          >
            Purge
          </button>
        )}
      </>
    );
  };

  return (
    <PageFrame title="Tenants">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <StatCard label="Businesses" value={summary?.businesses ?? '…'} />
        <StatCard label="Firms" value={summary?.firms ?? '…'} />
        <StatCard label="Sellers" value={summary?.sellers ?? '…'} />
      </div>
      <SuccessCallout message={notice} />
      <ErrorCallout message={failure} />
      <Card>
        {tenants.isError && (
          <p role="alert" className="mb-3 text-sm text-red-700">
            {tenants.error.message}
          </p>
        )}
        {tenants.data && (
          <p className="mb-3 text-sm text-gray-700" data-testid="tenants-total">
            {narrowed ? `${tenants.data.total} matching tenants` : `${tenants.data.total} tenants`}
          </p>
        )}
        {limitNotice && (
          <p role="status" className="mb-3 text-sm text-amber-900">
            {limitNotice}
          </p>
        )}
        {/* The table's screen-reader-only header texts are positioned outside its scrolling box;
            clipped here, they would otherwise widen the whole page. */}
        <div className="relative -mx-1 overflow-x-clip px-1">
          <DataTable
            label="Tenants"
            data={rows}
            columns={columns}
            getRowId={(row) => String(row.Id)}
            searchLabel="Search tenants"
            emptyText="No tenants yet."
            noMatchText="No tenants match the search and filters."
            filtered={narrowed}
            filters={
              <>
                <div className="sm:w-36">
                  <SelectField
                    name="usageType"
                    label="Usage type"
                    value={view.usageType ?? ''}
                    blankLabel="All"
                    options={usageOptions}
                    onValueChange={(value) =>
                      narrow({ usageType: value === '' ? null : UsageType.parse(value) })
                    }
                  />
                </div>
                <div className="sm:w-40">
                  <SelectField
                    name="classification"
                    label="Classification"
                    value={view.classification ?? ''}
                    blankLabel="All"
                    options={classificationOptions}
                    onValueChange={(value) =>
                      narrow({ classification: value === '' ? null : TenantClassification.parse(value) })
                    }
                  />
                </div>
                <div className="sm:w-32">
                  <SelectField
                    name="hasUsers"
                    label="Has users"
                    value={view.hasUsers === null ? '' : String(view.hasUsers)}
                    blankLabel="Any"
                    options={yesNo}
                    onValueChange={(value) => narrow({ hasUsers: flagOf(value) })}
                  />
                </div>
                <div className="sm:w-40">
                  <SelectField
                    name="hasActiveSellers"
                    label="Has active sellers"
                    value={view.hasActiveSellers === null ? '' : String(view.hasActiveSellers)}
                    blankLabel="Any"
                    options={yesNo}
                    onValueChange={(value) => narrow({ hasActiveSellers: flagOf(value) })}
                  />
                </div>
                <Button
                  type="button"
                  variant="light"
                  onClick={() => {
                    setChoice(initialTenantsView);
                    setSearchInput('');
                  }}
                >
                  Reset Filters
                </Button>
              </>
            }
            toolbar={
              <Button type="button" onClick={() => setAdding(true)}>
                Add
              </Button>
            }
            rowActions={rowActions}
            expanded={{
              label: (row) => `Users, sellers and linked tenants of ${row.Name}`,
              render: (row) => <TenantDetails tenantId={row.Id} />,
            }}
            server={{
              ...paging,
              pageIndex: paged ? choice.pageIndex : 0,
              sort: view.sort
                ? { id: view.sort.field, desc: view.sort.direction === 'desc' }
                : { id: '', desc: false },
              search: searchInput,
              onPage: (pageIndex) => setChoice((current) => ({ ...current, pageIndex })),
              onSort: (sort) => {
                const field = isSortField(sort.id);
                if (!field.success) return;
                narrow({ sort: { field: field.data, direction: sort.desc ? 'desc' : 'asc' } });
              },
              onSearch: setSearchInput,
            }}
          />
        </div>
      </Card>
      {adding && (
        <NewTenantModal
          onClose={() => setAdding(false)}
          onCreated={(tenant) => {
            setAdding(false);
            setNotice(`Created ${tenant.Name} (${tenant.Id}).`);
          }}
        />
      )}
      {editing !== null && (
        <EditTenantModal
          tenantId={editing}
          onClose={() => {
            setEditing(null);
            void refresh();
          }}
        />
      )}
      {acting && (
        <TenantActionModal
          tenant={acting.tenant}
          kind={acting.kind}
          onClose={() => setActing(null)}
          onDone={(message) => {
            setActing(null);
            setNotice(message);
          }}
        />
      )}
    </PageFrame>
  );
};
