import {
  Button,
  Card,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeaderCell,
  TableRow,
} from '@tremor/react';
import { useState } from 'react';
import {
  collectionProviders,
  useBulkSync,
  useCollectionSellers,
  type CollectionProvider,
} from '../../../api/queries/admin-collection';
import { ErrorCallout } from '../../../components/error-callout';
import { TextLink } from '../../../components/text-link';
import { tableTexts } from '../../../table/empty-texts';
import { PageFrame } from '../../dashboard/stat-card';

const tabNames: Record<CollectionProvider, string> = {
  QBO: 'QuickBooks Online',
  QBD: 'QuickBooks Desktop',
  XERO: 'Xero',
  SAGE: 'Sage',
};

const dateText = (iso: string | null) => (iso ? new Date(iso).toISOString().slice(0, 10) : 'Never');

const Sellers = ({ provider }: { provider: CollectionProvider }) => {
  const sellers = useCollectionSellers(provider);
  const sync = useBulkSync();
  if (sellers.isError) return <ErrorCallout message={sellers.error.message} />;
  const rows = sellers.data?.rows;
  return (
    <>
      {provider === 'QBD' ? (
        <p className="text-sm text-gray-700">
          QuickBooks Desktop sellers sync when their Web Connector runs; open a seller&apos;s logs to see its
          runs.
        </p>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <Button type="button" loading={sync.isPending} onClick={() => sync.mutate(provider)}>
            Sync all active {tabNames[provider]} sellers
          </Button>
          {sync.data && (
            <p role="status" className="text-sm text-gray-900">
              {sync.data.message}
            </p>
          )}
          {sync.isError && <ErrorCallout message={sync.error.message} />}
        </div>
      )}
      <Table aria-label={`${tabNames[provider]} sellers`}>
        <TableHead>
          <TableRow>
            {[
              'Id',
              'Company',
              'Tenant',
              'Active',
              'Status',
              'Collection date',
              ...(provider === 'QBD' ? ['Logs'] : []),
            ].map((header) => (
              <TableHeaderCell key={header}>{header}</TableHeaderCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {!rows || rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={provider === 'QBD' ? 7 : 6} className="text-center">
                <span role="status">{rows ? 'No sellers' : tableTexts.loading}</span>
              </TableCell>
            </TableRow>
          ) : (
            rows.map((seller) => (
              <TableRow key={seller.Id}>
                <TableCell>{seller.Id}</TableCell>
                <TableCell className="whitespace-normal">{seller.CompanyName ?? ''}</TableCell>
                <TableCell className="whitespace-normal">{seller.Tenant?.Name ?? seller.TenantId}</TableCell>
                <TableCell>{seller.Active ? 'Yes' : 'No'}</TableCell>
                <TableCell className="whitespace-normal">{seller.Status.text}</TableCell>
                <TableCell>{dateText(seller.CollectionDate)}</TableCell>
                {provider === 'QBD' && (
                  <TableCell>
                    <TextLink to={`/admin/collection/qbd-logs/${seller.Id}`}>Logs of {seller.Id}</TextLink>
                  </TableCell>
                )}
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </>
  );
};

/**
 * /admin/collection (admin.md section 2): one tab per accounting platform with its sellers, the bulk
 * sync of a platform's active sellers, and for QuickBooks Desktop a link to each seller's logs.
 */
export const AdminCollectionPage = () => {
  const [provider, setProvider] = useState<CollectionProvider>('QBO');
  return (
    <PageFrame title="Collection">
      <div role="tablist" aria-label="Platforms" className="flex flex-wrap gap-2">
        {collectionProviders.map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            aria-selected={tab === provider}
            onClick={() => setProvider(tab)}
            className={`rounded px-3 py-1 text-sm focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600 ${
              tab === provider ? 'bg-blue-700 text-white' : 'bg-gray-100 text-gray-900'
            }`}
          >
            {tabNames[tab]}
          </button>
        ))}
      </div>
      <Card role="tabpanel" aria-label={tabNames[provider]}>
        <div className="space-y-3">
          <Sellers provider={provider} />
        </div>
      </Card>
    </PageFrame>
  );
};
