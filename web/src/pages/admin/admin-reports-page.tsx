import { Card } from '@tremor/react';
import { useCallback, useMemo, useState } from 'react';
import type { SellerResponse } from '../../../../contracts/api/sellers';
import { useAdminSellers, type AdminSellersView } from '../../api/queries/platforms';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { useTimedMessage } from '../../components/use-timed-message';
import type { DataColumn } from '../../table/data-columns';
import { DataTable } from '../../table/data-table';
import { PageFrame } from '../dashboard/stat-card';
import { ArchivedReportsTable } from '../reports/archived-reports-table';
import { useDebouncedValue } from '../sellers/use-debounced-value';
import { SendReportsPanel } from './send-reports-panel';

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

/**
 * /admin/reports (admin.md section 2): the send-reports view (active sellers, report and workflow
 * options) and each seller's archive in its expanded row. The advisors' emailed Client Performance
 * report is not offered: its pipeline is not built (their download is, on the Clients page).
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
    </PageFrame>
  );
};
