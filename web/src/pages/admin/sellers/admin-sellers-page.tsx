import { Button, Card } from '@tremor/react';
import { useMemo, useState, type FormEvent } from 'react';
import type { MetricsJobType } from '../../../../../contracts/api/jobs';
import { SellerSortField, type SellerResponse } from '../../../../../contracts/api/sellers';
import { SellerProvider } from '../../../../../contracts/events/seller';
import { useRequestSellerMetrics } from '../../../api/queries/jobs';
import { useDeleteSeller, useUpdateSeller } from '../../../api/queries/admin-sellers';
import {
  useAdminSellers,
  useSetSellerForecasting,
  type AdminSellersView,
} from '../../../api/queries/platforms';
import { ErrorCallout, SuccessCallout } from '../../../components/error-callout';
import { TextLink } from '../../../components/text-link';
import { useTimedMessage } from '../../../components/use-timed-message';
import { CheckboxField } from '../../../forms/checkbox-field';
import { SelectField } from '../../../forms/select-field';
import { TextField } from '../../../forms/text-field';
import type { DataColumn } from '../../../table/data-columns';
import { DataTable } from '../../../table/data-table';
import { PageFrame } from '../../dashboard/stat-card';
import { ArchivedReportsTable } from '../../reports/archived-reports-table';
import { dayText } from '../../sellers/receivables-format';
import { useDebouncedValue } from '../../sellers/use-debounced-value';
import { useAppServices } from '../../../session/app-services-context';
import { switchToTenant } from '../../../session/session-actions';
import { SendReportsPanel } from '../send-reports-panel';
import { SellerEditModal } from './seller-edit-modal';
import { TypedConfirmDialog, cancellingText } from './typed-confirm-dialog';

const PAGE_SIZE = 25;
const SEARCH_PAUSE_MS = 300;

/** admin.md section 8: metric and forecast job texts. */
const jobsCreated = 'Jobs created...';
const historicalCreated = 'Job created...';
/** admin.md section 8: the seller texts. */
export const sellerTexts = {
  activeFailed: 'There was an error while changing the Active state of the seller.',
  deleteFailed: (error: unknown) =>
    `There was an error while deleting the seller: ${error instanceof Error ? error.message : String(error)}`,
  switchFailed: 'There was an error while switching to a different tenant.',
} as const;

const failureText = (error: unknown) =>
  `There was an error: ${error instanceof Error ? error.message : String(error)}`;

/** The per-row buttons of admin.md section 2, in its order, with what each asks for. */
const rowJobs: readonly { jobType: MetricsJobType; text: string; name: string }[] = [
  { jobType: 'sellers', text: 'S', name: 'Seller metrics' },
  { jobType: 'forecasts', text: 'F S', name: 'Seller forecasts' },
  { jobType: 'forecastByCustomer', text: 'F C', name: 'Customer forecasts' },
  { jobType: 'customers', text: 'C', name: 'Customer metrics' },
];

/** admin.md section 2 names these; DEMO sellers exist too. */
const providerOptions = SellerProvider.options.map((provider) => ({ value: provider, label: provider }));
const recencyOptions = [
  { value: 'recent', label: 'Recent (under 60 minutes)' },
  { value: 'stale', label: 'Stale (60 minutes or more, or never)' },
];
const activeOptions = [
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Inactive' },
];

type Filters = Pick<AdminSellersView, 'provider' | 'active' | 'collection' | 'metrics'> & {
  /** As typed; only digits filter. */
  partnerId: string;
};
/** The table opens on the active sellers (admin.md section 2). */
const initialFilters: Filters = {
  provider: null,
  active: true,
  collection: null,
  metrics: null,
  partnerId: '',
};

const sellerName = (seller: SellerResponse) => seller.CompanyName ?? `${seller.Provider} seller ${seller.Id}`;

const dateTimeText = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleString('en-US', {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        timeZone: 'UTC',
        timeZoneName: 'short',
      })
    : dayText(null);

const recencyBadge = (recency: 'recent' | 'stale') => (
  <span
    className={`ml-1 inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${
      recency === 'recent'
        ? 'bg-emerald-50 text-emerald-800 ring-emerald-600/30'
        : 'bg-amber-50 text-amber-900 ring-amber-600/30'
    }`}
  >
    {recency === 'recent' ? 'Recent' : 'Stale'}
  </span>
);

const isSortField = (id: string): id is SellerSortField => SellerSortField.safeParse(id).success;

const columnsOf = (toggle: {
  pendingFor: number | null;
  onChange: (seller: SellerResponse, enabled: boolean) => void;
  activePendingFor: number | null;
  onActive: (seller: SellerResponse, active: boolean) => void;
}): DataColumn<SellerResponse>[] => [
  { id: 'Id', header: 'Id', value: (row) => row.Id, sortable: true },
  {
    id: 'CompanyName',
    header: 'Company',
    value: (row) => row.CompanyName,
    sortable: true,
    cell: (row) => <TextLink to={`/sellers/${row.Id}`}>{sellerName(row)}</TextLink>,
  },
  {
    id: 'TenantId',
    header: 'Tenant',
    value: (row) => row.TenantId,
    sortable: true,
    hideOnMobile: true,
    cell: (row) => `${row.Tenant?.Name ?? 'Unnamed'} (${row.TenantId})`,
  },
  { id: 'Provider', header: 'Provider', value: (row) => row.Provider, sortable: true, hideOnMobile: true },
  {
    id: 'Active',
    header: 'Active',
    value: (row) => row.Active,
    sortable: true,
    cell: (row) => (
      <input
        type="checkbox"
        role="switch"
        aria-label={`Active: ${sellerName(row)}`}
        checked={row.Active}
        disabled={toggle.activePendingFor === row.Id}
        onChange={(event) => toggle.onActive(row, event.target.checked)}
        className="h-4 w-4 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
      />
    ),
  },
  {
    id: 'Status',
    header: 'Status',
    hideOnMobile: true,
    cell: (row) => row.Status.text,
  },
  {
    id: 'CollectionDate',
    header: 'Collection date',
    value: (row) => row.CollectionDate,
    sortable: true,
    hideOnMobile: true,
    cell: (row) => (
      <>
        {dateTimeText(row.CollectionDate)}
        {recencyBadge(row.CollectionRecency)}
      </>
    ),
  },
  {
    id: 'MetricsDate',
    header: 'Metrics date',
    value: (row) => row.MetricsDate,
    sortable: true,
    hideOnMobile: true,
    cell: (row) => (
      <>
        {dateTimeText(row.MetricsDate)}
        {recencyBadge(row.MetricsRecency)}
      </>
    ),
  },
  {
    id: 'Forecasting',
    header: 'Forecasting',
    cell: (row) => (
      <input
        type="checkbox"
        role="switch"
        aria-label={`Forecasting for ${sellerName(row)}`}
        checked={row.Forecasting}
        disabled={toggle.pendingFor === row.Id}
        onChange={(event) => toggle.onChange(row, event.target.checked)}
        className="h-4 w-4 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
      />
    ),
  },
];

/**
 * /admin/sellers (admin.md section 2): every tenant's sellers, filtered, searched, sorted and paged by
 * the server, with the metric and forecast job buttons, capture historical and the forecasting toggle.
 */
export const AdminSellersPage = () => {
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput, SEARCH_PAUSE_MS);
  const [filters, setFilters] = useState<Filters>(initialFilters);
  const [order, setOrder] = useState<Pick<AdminSellersView, 'sort' | 'direction' | 'pageIndex'>>({
    sort: 'Id',
    direction: 'desc',
    pageIndex: 0,
  });
  const [onlyMissing, setOnlyMissing] = useState(false);
  const [historicalId, setHistoricalId] = useState('');
  const [historicalError, setHistoricalError] = useState<string | undefined>(undefined);
  const [notice, setNotice] = useTimedMessage();
  const [failure, setFailure] = useState<string | null>(null);

  // A new search or filter starts again at the first page (adjusted during render, not in an effect).
  const narrowing = JSON.stringify({ search, filters });
  const [pageNarrowing, setPageNarrowing] = useState(narrowing);
  if (pageNarrowing !== narrowing) {
    setPageNarrowing(narrowing);
    setOrder((current) => ({ ...current, pageIndex: 0 }));
  }

  const partnerId = /^\d{1,10}$/.test(filters.partnerId.trim()) ? Number(filters.partnerId.trim()) : null;
  const sellers = useAdminSellers({
    ...filters,
    partnerId,
    search,
    ...order,
    pageSize: PAGE_SIZE,
  });
  const requestJob = useRequestSellerMetrics();
  const setForecasting = useSetSellerForecasting();
  const updateSeller = useUpdateSeller();
  const deleteSeller = useDeleteSeller();
  const services = useAppServices();
  const [selected, setSelected] = useState<string[]>([]);
  const [editing, setEditing] = useState<SellerResponse | null>(null);
  const [deleting, setDeleting] = useState<SellerResponse | null>(null);
  const sellerIds = useMemo(() => selected.map(Number), [selected]);

  const switchTo = (seller: SellerResponse) => {
    setFailure(null);
    switchToTenant(services, { tenantId: seller.TenantId, to: `/sellers/${seller.Id}` }).catch(() =>
      setFailure(sellerTexts.switchFailed),
    );
  };

  const removeSeller = (seller: SellerResponse) => {
    setFailure(null);
    deleteSeller.mutate(seller.Id, {
      onSuccess: () => {
        setDeleting(null);
        setSelected((current) => current.filter((id) => id !== String(seller.Id)));
        setNotice(`${sellerName(seller)} was deleted.`);
      },
      onError: (error) => {
        setDeleting(null);
        setFailure(sellerTexts.deleteFailed(error));
      },
    });
  };

  const runJob = async (input: { sellerId: number; jobType: MetricsJobType }) => {
    setFailure(null);
    setNotice(null);
    try {
      await requestJob.mutateAsync({ ...input, onlyMissing });
      setNotice(input.jobType === 'historical' ? historicalCreated : jobsCreated);
      return true;
    } catch (error) {
      setFailure(failureText(error));
      return false;
    }
  };

  const forecastingFor = setForecasting.isPending ? (setForecasting.variables?.sellerId ?? null) : null;
  const mutateForecasting = setForecasting.mutate;
  const activeFor = updateSeller.isPending ? (updateSeller.variables?.sellerId ?? null) : null;
  const mutateSeller = updateSeller.mutate;
  const columns = useMemo(
    () =>
      columnsOf({
        pendingFor: forecastingFor,
        onChange: (seller, enabled) => {
          setFailure(null);
          mutateForecasting(
            { sellerId: seller.Id, enabled },
            { onError: (error) => setFailure(failureText(error)) },
          );
        },
        activePendingFor: activeFor,
        onActive: (seller, active) => {
          setFailure(null);
          mutateSeller(
            { sellerId: seller.Id, body: { Active: active } },
            { onError: () => setFailure(sellerTexts.activeFailed) },
          );
        },
      }),
    [forecastingFor, mutateForecasting, activeFor, mutateSeller],
  );

  const captureHistorical = async (event: FormEvent) => {
    event.preventDefault();
    const id = historicalId.trim();
    if (!/^\d{1,10}$/.test(id) || Number(id) < 1) {
      setHistoricalError('Enter a seller id.');
      return;
    }
    setHistoricalError(undefined);
    if (await runJob({ sellerId: Number(id), jobType: 'historical' })) setHistoricalId('');
  };

  const filtering =
    search.trim() !== '' ||
    filters.provider !== null ||
    filters.active !== null ||
    filters.collection !== null ||
    filters.metrics !== null ||
    partnerId !== null;
  const counts = sellers.data;

  return (
    <PageFrame title="Sellers">
      <SuccessCallout message={notice} />
      <ErrorCallout message={failure} />
      <Card>
        <form
          className="flex flex-col gap-3 sm:flex-row sm:items-end"
          aria-label="Capture historical"
          onSubmit={(event) => void captureHistorical(event)}
        >
          <div className="sm:w-48">
            <TextField
              name="historicalSellerId"
              label="Seller id"
              value={historicalId}
              onValueChange={setHistoricalId}
              error={historicalError}
              hint="Metrics and forecasts as of past dates."
            />
          </div>
          <Button type="submit" variant="secondary" disabled={requestJob.isPending}>
            Capture historical
          </Button>
          <div className="sm:ml-auto">
            <CheckboxField
              name="onlyMissing"
              label="Only missing periods (every job button)"
              checked={onlyMissing}
              onCheckedChange={setOnlyMissing}
            />
          </div>
        </form>
      </Card>
      <Card>
        {sellers.isError && (
          <p role="alert" className="mb-3 text-sm text-red-700">
            {sellers.error.message}
          </p>
        )}
        {counts && !sellers.isError && (
          <p className="mb-3 text-sm text-gray-700" data-testid="sellers-summary">
            Total: {counts.total}, Filtered: {counts.filtered}
          </p>
        )}
        <DataTable
          label="Sellers"
          data={sellers.isError ? [] : sellers.data?.rows}
          columns={columns}
          getRowId={(row) => String(row.Id)}
          searchLabel="Search sellers"
          emptyText="No sellers yet."
          noMatchText="No sellers match the search and filters."
          filtered={filtering}
          filters={
            <>
              <div className="sm:w-36">
                <SelectField
                  name="provider"
                  label="Provider"
                  value={filters.provider ?? ''}
                  blankLabel="All"
                  options={providerOptions}
                  onValueChange={(value) =>
                    setFilters((current) => ({
                      ...current,
                      provider: value === '' ? null : SellerProvider.parse(value),
                    }))
                  }
                />
              </div>
              <div className="sm:w-32">
                <SelectField
                  name="active"
                  label="Active"
                  value={filters.active === null ? '' : String(filters.active)}
                  blankLabel="All"
                  options={activeOptions}
                  onValueChange={(value) =>
                    setFilters((current) => ({ ...current, active: value === '' ? null : value === 'true' }))
                  }
                />
              </div>
              <div className="sm:w-48">
                <SelectField
                  name="collection"
                  label="Collection date"
                  value={filters.collection ?? ''}
                  blankLabel="Any"
                  options={recencyOptions}
                  onValueChange={(value) =>
                    setFilters((current) => ({
                      ...current,
                      collection: value === 'recent' || value === 'stale' ? value : null,
                    }))
                  }
                />
              </div>
              <div className="sm:w-48">
                <SelectField
                  name="metrics"
                  label="Metrics date"
                  value={filters.metrics ?? ''}
                  blankLabel="Any"
                  options={recencyOptions}
                  onValueChange={(value) =>
                    setFilters((current) => ({
                      ...current,
                      metrics: value === 'recent' || value === 'stale' ? value : null,
                    }))
                  }
                />
              </div>
              <div className="sm:w-40">
                <TextField
                  name="partnerId"
                  label="Partner id"
                  value={filters.partnerId}
                  onValueChange={(value) => setFilters((current) => ({ ...current, partnerId: value }))}
                />
              </div>
              <Button
                type="button"
                variant="light"
                onClick={() => {
                  setFilters({ ...initialFilters, active: null });
                  setSearchInput('');
                }}
              >
                Clear Filters
              </Button>
            </>
          }
          selection={{ selected, onChange: setSelected }}
          rowName={sellerName}
          toolbar={
            <span className="self-center text-sm text-gray-700" data-testid="sellers-selected">
              {selected.length} selected
            </span>
          }
          rowActions={(seller) => (
            <div className="flex flex-wrap gap-1">
              {rowJobs.map((job) => (
                <Button
                  key={job.jobType}
                  size="xs"
                  variant="secondary"
                  title={job.name}
                  aria-label={`${job.text}: ${job.name} for ${sellerName(seller)}`}
                  disabled={requestJob.isPending}
                  onClick={() => void runJob({ sellerId: seller.Id, jobType: job.jobType })}
                >
                  {job.text}
                </Button>
              ))}
              <Button
                size="xs"
                variant="light"
                aria-label={`Edit ${sellerName(seller)}`}
                onClick={() => setEditing(seller)}
              >
                Edit
              </Button>
              <Button
                size="xs"
                variant="light"
                aria-label={`Switch to Tenant of ${sellerName(seller)}`}
                onClick={() => switchTo(seller)}
              >
                Switch to Tenant
              </Button>
              {!seller.Active && (
                <Button
                  size="xs"
                  variant="secondary"

                  aria-label={`Delete ${sellerName(seller)}`}
                  onClick={() => setDeleting(seller)}
                >
                  Delete
                </Button>
              )}
            </div>
          )}
          expanded={{
            label: (seller) => `Archived reports of ${sellerName(seller)}`,
            render: (seller) => (
              <ArchivedReportsTable sellerId={seller.Id} showSeller={false} onError={setFailure} />
            ),
          }}
          server={{
            rowCount: sellers.data?.filtered ?? 0,
            pageIndex: order.pageIndex,
            pageSize: PAGE_SIZE,
            sort: { id: order.sort, desc: order.direction === 'desc' },
            search: searchInput,
            onPage: (pageIndex) => setOrder((current) => ({ ...current, pageIndex })),
            onSort: (sort) => {
              if (!isSortField(sort.id)) return;
              setOrder({ sort: sort.id, direction: sort.desc ? 'desc' : 'asc', pageIndex: 0 });
            },
            onSearch: setSearchInput,
          }}
        />
      </Card>
      <Card>
        <h2 className="mb-3 text-base font-semibold text-gray-900">
          Send reports or start a workflow for the {selected.length} selected
        </h2>
        <SendReportsPanel sellerIds={sellerIds} onDone={setNotice} onError={setFailure} />
      </Card>
      {editing && (
        <SellerEditModal
          sellerId={editing.Id}
          title={`Update Seller: ${sellerName(editing)}`}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            setNotice(`${sellerName(editing)} was updated.`);
          }}
        />
      )}
      {deleting && (
        <TypedConfirmDialog
          title={`Delete ${sellerName(deleting)}`}
          message={`${sellerName(deleting)} (${deleting.Id}) and its connection are removed.`}
          word="delete"
          confirmLabel="Delete"
          pending={deleteSeller.isPending}
          onConfirm={() => removeSeller(deleting)}
          onCancel={() => {
            setDeleting(null);
            setNotice(cancellingText('delete seller'));
          }}
        />
      )}
    </PageFrame>
  );
};
