import { Button, Card } from '@tremor/react';
import { useCallback, useMemo, useState } from 'react';
import type { SellerResponse } from '../../../../contracts/api/sellers';
import { useRequestAdminReports } from '../../api/queries/reports';
import { useAdminSellers, type AdminSellersView } from '../../api/queries/platforms';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { useTimedMessage } from '../../components/use-timed-message';
import { CheckboxField } from '../../forms/checkbox-field';
import type { DataColumn } from '../../table/data-columns';
import { DataTable } from '../../table/data-table';
import { PageFrame } from '../dashboard/stat-card';
import { ArchivedReportsTable } from '../reports/archived-reports-table';
import { useDebouncedValue } from '../sellers/use-debounced-value';
import { sendFailureText, SendReportsPanel } from './send-reports-panel';

const PAGE_SIZE = 20;

const sellerName = (seller: SellerResponse) => seller.CompanyName ?? `${seller.Provider} seller ${seller.Id}`;

const columns: DataColumn<SellerResponse>[] = [
  { id: 'Id', header: 'Id', value: (row) => row.Id },
  { id: 'CompanyName', header: 'Company', value: sellerName },
  {
    id: 'TenantId',
    header: 'Tenant',
    value: (row) => row.TenantId,
    cell: (row) => `${row.Tenant?.Name ?? 'Unnamed'} (${row.TenantId})`,
    hideOnMobile: true,
  },
  { id: 'Provider', header: 'Provider', value: (row) => row.Provider, hideOnMobile: true },
];

/** The advisors' Client Performance report (admin.md section 7: POST /api/reports, CLIENT_PERFORMANCE). */
const ClientPerformanceForm = ({
  onDone,
  onError,
}: {
  onDone: (m: string) => void;
  onError: (m: string) => void;
}) => {
  const send = useRequestAdminReports();
  const [options, setOptions] = useState({
    excludeAdmins: false,
    hasSellers: false,
    dryRun: false,
    admin: false,
  });
  const flags: readonly { key: keyof typeof options; label: string }[] = [
    { key: 'excludeAdmins', label: 'Exclude platform admins' },
    { key: 'hasSellers', label: 'Only advisors whose clients have sellers' },
    { key: 'dryRun', label: 'Dry run (render, send nothing)' },
    { key: 'admin', label: 'Send to platform admins only' },
  ];
  const submit = async () => {
    try {
      const { jobs } = await send.mutateAsync({ type: 'CLIENT_PERFORMANCE', ...options });
      onDone(`Job created for ${jobs.length} Client Performance report${jobs.length === 1 ? '' : 's'}`);
    } catch (error) {
      onError(sendFailureText(error));
    }
  };
  return (
    <section aria-label="Send Report to Advisors" className="space-y-3">
      {flags.map((flag) => (
        <CheckboxField
          key={flag.key}
          name={`client-${flag.key}`}
          label={flag.label}
          checked={options[flag.key]}
          onCheckedChange={(checked) => setOptions((current) => ({ ...current, [flag.key]: checked }))}
        />
      ))}
      <Button variant="secondary" loading={send.isPending} onClick={() => void submit()}>
        Send Client Performance
      </Button>
    </section>
  );
};

/**
 * /admin/reports (admin.md section 2): the send-reports view (active sellers, report and workflow
 * options, the advisors' report) and the archive of the seller being looked at.
 */
export const AdminReportsPage = () => {
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput, 300);
  const [pageIndex, setPageIndex] = useState(0);
  const [selected, setSelected] = useState<string[]>([]);
  const [notice, setNotice] = useTimedMessage();
  const [failure, setFailure] = useState<string | null>(null);
  const view = useMemo(
    (): AdminSellersView => ({
      search,
      provider: null,
      active: true,
      collection: null,
      metrics: null,
      partnerId: null,
      sort: 'Id',
      direction: 'desc',
      pageIndex,
      pageSize: PAGE_SIZE,
    }),
    [search, pageIndex],
  );
  const sellers = useAdminSellers(view);
  const onDone = useCallback(
    (message: string) => {
      setFailure(null);
      setNotice(message);
    },
    [setNotice],
  );
  const sellerIds = selected.map(Number);

  return (
    <PageFrame title="Reports">
      <SuccessCallout message={notice} />
      <ErrorCallout message={failure} />
      <Card>
        <h2 className="mb-3 text-lg font-medium text-gray-900">Active sellers</h2>
        <p className="mb-3 text-sm text-gray-600" data-testid="selected-sellers">
          {sellerIds.length === 0 ? 'Select sellers to send their reports.' : `${sellerIds.length} selected`}
        </p>
        <DataTable
          label="Active sellers"
          data={sellers.isError ? [] : sellers.data?.rows}
          columns={columns}
          getRowId={(row) => String(row.Id)}
          rowName={sellerName}
          selection={{ selected, onChange: setSelected }}
          searchLabel="Search sellers"
          emptyText="No sellers yet."
          noMatchText="No sellers match the search."
          expanded={{
            label: (seller) => `Archived reports of ${sellerName(seller)}`,
            render: (seller) => (
              <ArchivedReportsTable sellerId={seller.Id} showSeller={false} onError={setFailure} />
            ),
          }}
          server={{
            rowCount: sellers.data?.filtered ?? 0,
            pageIndex,
            pageSize: PAGE_SIZE,
            sort: { id: 'Id', desc: true },
            search: searchInput,
            onPage: setPageIndex,
            onSort: () => undefined,
            onSearch: (value) => {
              setSearchInput(value);
              setPageIndex(0);
            },
          }}
        />
      </Card>
      <Card>
        <SendReportsPanel sellerIds={sellerIds} onDone={onDone} onError={setFailure} />
      </Card>
      <Card>
        <h2 className="mb-3 text-lg font-medium text-gray-900">Send Report to Advisors</h2>
        <ClientPerformanceForm onDone={onDone} onError={setFailure} />
      </Card>
    </PageFrame>
  );
};
