import { Badge } from '@tremor/react';
import { Link } from 'react-router';
import type { IntegrationResponse } from '../../../../contracts/api/integrations';
import type { SellerResponse } from '../../../../contracts/api/sellers';
import { JobProgressList } from '../../live/job-progress-bar';
import type { RunningJob } from '../../live/running-jobs';
import { DataTable } from '../../table/data-table';
import type { DataColumn } from '../../table/data-columns';
import { tableTexts } from '../../table/empty-texts';
import {
  companyUrlOf,
  dayOf,
  integrationStatusText,
  qbdWarningText,
  sellerStatusText,
} from './seller-status';

export type ConnectedRow =
  | { kind: 'seller'; id: string; seller: SellerResponse }
  | { kind: 'integration'; id: string; integration: IntegrationResponse };

const integrationNames: Record<string, string> = {
  HUBSPOT: 'HubSpot',
  SALESFORCE: 'Salesforce',
  ACTIVE_CAMPAIGN: 'ActiveCampaign',
  GOOGLE: 'Google',
  MICROSOFT: 'Microsoft',
  WORKSPACE: 'Workspace',
};

export const integrationNameOf = (
  integration: Pick<IntegrationResponse, 'Provider' | 'ProductIdentifier'>,
) =>
  integration.ProductIdentifier === 'REVOPS'
    ? 'HubSpot RevOps Pro'
    : (integrationNames[integration.Provider] ?? integration.Provider);

const rowLink =
  'rounded px-2 py-1 text-sm font-medium text-blue-700 hover:bg-blue-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600';

type Props = {
  rows: readonly ConnectedRow[] | undefined;
  failed: boolean;
  jobs: readonly RunningJob[];
  canManage: boolean;
  onDisconnect: (row: ConnectedRow) => void;
  onReinstall: (seller: SellerResponse) => void;
};

/** Where a revoked seller connects again: the platform's redirect start (a new authorisation clears REVOKED). */
const reconnectRoutes: Partial<Record<SellerResponse['Provider'], string>> = {
  QBO: '/api/connect/qbo',
  XERO: '/api/connect/xero',
  STRIPE: '/api/connect/stripe',
};

// The status, its badges and the QBD warning are the server's (GET /api/sellers computes them).
const SellerStatus = ({
  seller,
  jobs,
  canManage,
}: {
  seller: SellerResponse;
  jobs: readonly RunningJob[];
  canManage: boolean;
}) => {
  const running = jobs.filter((job) => job.sellerId === seller.Id);
  const reconnect =
    seller.Status.kind === 'revoked' && canManage ? reconnectRoutes[seller.Provider] : undefined;
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center gap-2">
        <span>{sellerStatusText(seller.Status)}</span>
        {reconnect && (
          // A full navigation: the connect start answers with the platform's redirect.
          <a href={reconnect} className={rowLink}>
            Reconnect
          </a>
        )}
        {seller.ProgressBadge && (
          // Not a Tremor Badge: its text never wraps, and "Generating metrics..." must fit at 360 px.
          <span
            className={`rounded-tremor-small px-2 py-0.5 text-sm ring-1 ring-inset ${
              seller.ProgressBadge.stage === 'completed'
                ? 'bg-emerald-50 text-emerald-700 ring-emerald-600/20'
                : 'bg-blue-50 text-blue-700 ring-blue-600/20'
            }`}
          >
            {seller.ProgressBadge.text}
          </span>
        )}
        {seller.CollectionRecency === 'recent' && (
          // Tremor's default badge text falls short of WCAG AA contrast; the 800 shade meets it.
          <Badge color="emerald" className="text-emerald-800">
            Recent
          </Badge>
        )}
      </div>
      {seller.QbdSyncWarning && (
        <p role="alert" className="text-xs text-amber-700">
          {qbdWarningText}
        </p>
      )}
      <JobProgressList jobs={running} />
    </div>
  );
};

/** The connected sellers and integrations with the spec's status texts (portal.md section 2.3). */
export const ConnectedTable = ({ rows, failed, jobs, canManage, onDisconnect, onReinstall }: Props) => {
  const columns: DataColumn<ConnectedRow>[] = [
    {
      id: 'company',
      header: 'Company',
      value: (row) =>
        row.kind === 'seller'
          ? (row.seller.CompanyName ?? row.seller.Provider)
          : integrationNameOf(row.integration),
      cell: (row) => {
        if (row.kind === 'integration') return integrationNameOf(row.integration);
        const url = companyUrlOf(row.seller.URL);
        return (
          <div>
            <Link
              to={`/sellers/${row.seller.Id}`}
              className="font-medium text-gray-900 underline-offset-2 hover:underline"
            >
              {row.seller.CompanyName ?? row.seller.Provider}
            </Link>
            {url && <p className="text-xs text-gray-500">{url}</p>}
          </div>
        );
      },
    },
    {
      id: 'platform',
      header: 'Platform',
      hideOnMobile: true,
      value: (row) => (row.kind === 'seller' ? row.seller.Provider : row.integration.Provider),
    },
    {
      id: 'status',
      header: 'Status',
      cell: (row) =>
        row.kind === 'seller' ? (
          <SellerStatus seller={row.seller} jobs={jobs} canManage={canManage} />
        ) : (
          integrationStatusText(row.integration)
        ),
    },
    {
      id: 'lastSync',
      header: 'Last sync',
      hideOnMobile: true,
      value: (row) => {
        const date = row.kind === 'seller' ? row.seller.CollectionDate : row.integration.SyncDate;
        return date ? dayOf(date) : '';
      },
    },
  ];
  return (
    <DataTable
      label="Connected platforms"
      data={failed ? [] : rows}
      columns={columns}
      getRowId={(row) => row.id}
      emptyText={failed ? tableTexts.noData : tableTexts.noPlatforms}
      rowActions={(row) => (
        <>
          {row.kind === 'seller' && (
            <Link to={`/reports?sellerId=${row.seller.Id}`} className={rowLink}>
              Add recipient
            </Link>
          )}
          {canManage && row.kind === 'seller' && row.seller.Provider === 'QBD' && (
            <button type="button" className={rowLink} onClick={() => onReinstall(row.seller)}>
              Reinstall web connector
            </button>
          )}
          {canManage && (
            <button type="button" className={`${rowLink} text-red-700`} onClick={() => onDisconnect(row)}>
              Disconnect
            </button>
          )}
        </>
      )}
    />
  );
};
