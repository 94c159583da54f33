import { Button, Card } from '@tremor/react';
import { useState } from 'react';
import { useParams } from 'react-router';
import type { IntegrationCompanyRow } from '../../../../../contracts/api/integrations';
import { CrmMatchMethod } from '../../../../../contracts/events/integration';
import { ErrorCallout } from '../../../components/error-callout';
import { TextLink } from '../../../components/text-link';
import { SelectField } from '../../../forms/select-field';
import type { DataColumn } from '../../../table/data-columns';
import { DataTable } from '../../../table/data-table';
import { PageFrame } from '../../dashboard/stat-card';
import { useDebouncedValue } from '../../sellers/use-debounced-value';
import { useIntegrationCompanies } from './integration-companies-queries';

type Row = IntegrationCompanyRow;
type LinkFilter = 'all' | 'matched' | 'unmatched';

export const matchMethodLabels: Record<CrmMatchMethod, string> = {
  accountingId: 'Accounting identifier',
  exact: 'Exact name',
  cleaned: 'Cleaned name',
  approx: 'Approximate name',
  created: 'Created in the CRM',
};

const PAGE_SIZE = 50;
const linkOptions = [
  { value: 'matched', label: 'Matched' },
  { value: 'unmatched', label: 'Unmatched' },
];
const methodOptions = CrmMatchMethod.options.map((value) => ({ value, label: matchMethodLabels[value] }));

const columns: DataColumn<Row>[] = [
  { id: 'Name', header: 'CRM company', value: (row) => row.Name },
  { id: 'CrmId', header: 'CRM id', value: (row) => row.CrmId, hideOnMobile: true },
  {
    id: 'AccountingId',
    header: 'Accounting identifier',
    value: (row) => row.AccountingId,
    hideOnMobile: true,
  },
  {
    id: 'Customers',
    header: 'Linked customer',
    value: (row) => row.Links.map((link) => link.CustomerName ?? link.CustomerId).join(', '),
    cell: (row) =>
      row.Links.length === 0 ? (
        <span className="text-gray-600">Not matched</span>
      ) : (
        <ul className="space-y-0.5">
          {row.Links.map((link) => (
            <li key={`${link.SellerId}:${link.CustomerId}`}>
              {link.CustomerName ?? `Customer ${link.CustomerId}`}{' '}
              <span className="text-gray-600">
                (seller {link.SellerId}, {matchMethodLabels[link.Method]})
              </span>
            </li>
          ))}
        </ul>
      ),
  },
];

/**
 * /admin/integrations/:id/companies, reached from an integration's expanded row: the CRM companies its
 * last sync mirrored, each with the customers it is linked to and how (docs/adr/0045-crm-sync.md).
 * The server pages, searches and filters; the order is by name.
 */
export const IntegrationCompaniesPage = () => {
  const integrationId = Number(useParams().id);
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput, 300);
  const [filter, setFilter] = useState<LinkFilter>('all');
  const [method, setMethod] = useState<CrmMatchMethod | null>(null);
  const [pageIndex, setPageIndex] = useState(0);
  const companies = useIntegrationCompanies(integrationId, {
    search,
    filter,
    method: method ?? undefined,
    offset: pageIndex * PAGE_SIZE,
    limit: PAGE_SIZE,
  });
  const summary = companies.data?.Summary;
  const narrowed = search.trim() !== '' || filter !== 'all' || method !== null;
  return (
    <PageFrame title={`Matched companies of integration ${integrationId}`}>
      <p className="text-sm">
        <TextLink to="/admin/integrations">Back to Integrations</TextLink>
      </p>
      <ErrorCallout message={companies.isError ? companies.error.message : null} />
      <Card>
        {summary && (
          <p className="mb-3 text-sm text-gray-700">
            Companies: {summary.Companies}, Contacts: {summary.Contacts}, Matched companies:{' '}
            {summary.MatchedCompanies}, Linked customers: {summary.LinkedCustomers}, Filtered:{' '}
            {companies.data?.filtered}
          </p>
        )}
        <DataTable
          label="Matched companies"
          data={companies.isError ? [] : companies.data?.rows}
          columns={columns}
          getRowId={(row) => row.CrmId}
          emptyText="No companies: the account has not been synced yet."
          noMatchText="No companies match the search and filters."
          filtered={narrowed}
          pageSize={PAGE_SIZE}
          searchLabel="Search companies"
          server={{
            rowCount: companies.data?.filtered ?? 0,
            pageIndex,
            pageSize: PAGE_SIZE,
            sort: { id: 'Name', desc: false },
            search: searchInput,
            onPage: setPageIndex,
            onSort: () => undefined,
            onSearch: (value) => {
              setSearchInput(value);
              setPageIndex(0);
            },
          }}
          filters={
            <>
              <div className="sm:w-44">
                <SelectField
                  name="companiesLinked"
                  label="Links"
                  value={filter === 'all' ? '' : filter}
                  blankLabel="All"
                  options={linkOptions}
                  onValueChange={(value) => {
                    setFilter(value === 'matched' || value === 'unmatched' ? value : 'all');
                    setPageIndex(0);
                  }}
                />
              </div>
              <div className="sm:w-52">
                <SelectField
                  name="companiesMethod"
                  label="Method"
                  value={method ?? ''}
                  blankLabel="Any"
                  options={methodOptions}
                  onValueChange={(value) => {
                    const parsed = CrmMatchMethod.safeParse(value);
                    setMethod(parsed.success ? parsed.data : null);
                    setPageIndex(0);
                  }}
                />
              </div>
              <Button
                type="button"
                variant="light"
                onClick={() => {
                  setFilter('all');
                  setMethod(null);
                  setSearchInput('');
                  setPageIndex(0);
                }}
              >
                Reset Filters
              </Button>
            </>
          }
        />
      </Card>
    </PageFrame>
  );
};
