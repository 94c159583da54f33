import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { CustomerSortColumn, SellerCustomerRow } from '../../../../contracts/api/receivables';
import { useSellerCustomers, type CustomersPage } from '../../api/queries/receivables';
import type { DataColumn } from '../../table/data-columns';
import { DataTable } from '../../table/data-table';
import { dayText, daysOrDash, riskClasses, riskTexts } from './receivables-format';
import { useDebouncedValue } from './use-debounced-value';

const PAGE_SIZE = 25;
const SEARCH_PAUSE_MS = 300;

/** The server sorts by these; a column sorts only when its id is one of them. */
const sortable = (id: string): id is CustomerSortColumn =>
  [
    'customerId',
    'name',
    'salesT36M',
    'openBalance',
    'overdue',
    'dsoDays',
    'movingAvgDbtDays',
    'lastPurchase',
    'averageDaysLate',
    'risk',
  ].includes(id);

const linkClasses =
  'font-medium text-blue-700 underline-offset-2 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600';

const columnsOf = (sellerId: number, money: (value: number) => string): DataColumn<SellerCustomerRow>[] => [
  {
    id: 'name',
    header: 'Customer',
    value: (row) => row.name,
    sortable: true,
    cell: (row) => (
      <Link to={`/sellers/${sellerId}/customers/${row.customerId}`} className={linkClasses}>
        {row.name}
      </Link>
    ),
  },
  {
    id: 'salesT36M',
    header: 'Sales (36 months)',
    value: (row) => row.salesT36M,
    sortable: true,
    hideOnMobile: true,
    align: 'end',
    cell: (row) => money(row.salesT36M / 100),
  },
  {
    id: 'openBalance',
    header: 'Open balance',
    value: (row) => row.openBalance,
    sortable: true,
    align: 'end',
    cell: (row) => money(row.openBalance / 100),
  },
  {
    id: 'risk',
    header: 'Risk',
    value: (row) => row.risk,
    sortable: true,
    cell: (row) => (
      <span
        className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${riskClasses[row.risk]}`}
      >
        {riskTexts[row.risk]}
      </span>
    ),
  },
  {
    id: 'overdue',
    header: 'Overdue',
    value: (row) => row.overdue,
    sortable: true,
    hideOnMobile: true,
    align: 'end',
    cell: (row) => money(row.overdue / 100),
  },
  {
    id: 'dsoDays',
    header: 'DSO',
    value: (row) => row.dsoDays,
    sortable: true,
    hideOnMobile: true,
    align: 'end',
    cell: (row) => daysOrDash(row.dsoDays),
  },
  {
    id: 'movingAvgDbtDays',
    header: 'MovingAvg DBT',
    value: (row) => row.movingAvgDbtDays,
    sortable: true,
    hideOnMobile: true,
    align: 'end',
    cell: (row) => daysOrDash(row.movingAvgDbtDays),
  },
  {
    id: 'averageDaysLate',
    header: 'Days late',
    value: (row) => row.averageDaysLate,
    sortable: true,
    hideOnMobile: true,
    align: 'end',
    cell: (row) => daysOrDash(row.averageDaysLate),
  },
  {
    id: 'lastPurchase',
    header: 'Last purchase',
    value: (row) => row.lastPurchase,
    sortable: true,
    hideOnMobile: true,
    cell: (row) => dayText(row.lastPurchase),
  },
];

/**
 * The seller's customers with their figures and risk, paged, sorted and searched by the server
 * (a seller may have 10,000 customers); each name opens the customer's view.
 */
export const CustomersTable = ({
  sellerId,
  money,
}: {
  sellerId: number;
  money: (value: number) => string;
}) => {
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput, SEARCH_PAUSE_MS);
  const [view, setView] = useState<Omit<CustomersPage, 'search' | 'pageSize'>>({
    page: 1,
    sort: 'openBalance',
    order: 'desc',
  });
  const [pageSearch, setPageSearch] = useState(search);
  // A new search starts again at its first page (adjusted during render, not in an effect).
  if (pageSearch !== search) {
    setPageSearch(search);
    setView((current) => ({ ...current, page: 1 }));
  }
  const customers = useSellerCustomers(sellerId, { ...view, pageSize: PAGE_SIZE, search });
  const columns = useMemo(() => columnsOf(sellerId, money), [sellerId, money]);

  return (
    <div className="space-y-2">
      {customers.isError && (
        <p role="alert" className="text-sm text-red-700">
          {customers.error.message}
        </p>
      )}
      <DataTable
        label="Customers"
        data={customers.isError ? [] : customers.data?.rows}
        columns={columns}
        getRowId={(row) => String(row.customerId)}
        searchLabel="Search customers"
        emptyText="No customers yet: they arrive with the seller's next sync."
        noMatchText="No customers match the search."
        filtered={search.trim() !== ''}
        server={{
          rowCount: customers.data?.total ?? 0,
          pageIndex: view.page - 1,
          pageSize: PAGE_SIZE,
          sort: { id: view.sort, desc: view.order === 'desc' },
          search: searchInput,
          onPage: (pageIndex) => setView((current) => ({ ...current, page: pageIndex + 1 })),
          onSort: (sort) => {
            if (!sortable(sort.id)) return;
            const id = sort.id;
            setView({ page: 1, sort: id, order: sort.desc ? 'desc' : 'asc' });
          },
          onSearch: setSearchInput,
        }}
      />
    </div>
  );
};
