import { useMemo } from 'react';
import type {
  ManagedReport,
  ManagedReportProvider,
  ManagedReportType,
} from '../../../../contracts/api/reports';
import { useManagedReports } from '../../api/queries/reports';
import type { DataColumn } from '../../table/data-columns';
import { DataTable } from '../../table/data-table';
import { dateTimeOf, relativeTimeOf } from './report-texts';

export const managedTypeLabels: Record<ManagedReportType, string> = {
  CUSTOMER_SHEET: 'Customer sheet',
  AR_FORECAST_SHEET: 'AR forecast sheet',
};

export const managedProviderLabels: Record<ManagedReportProvider, string> = {
  GOOGLE: 'Google Sheets',
  MICROSOFT: 'Microsoft Excel',
};

export const noLiveReports =
  'No Live Reports. Connect Google or Microsoft on the Platforms page: the customer sheet and the ' +
  'AR forecast sheet are then kept there and refreshed after every sync.';

/**
 * Live Reports (portal.md section 2.3, docs/adr/0049-live-reports.md): the customer sheet and AR forecast
 * sheet kept in the tenant's Google Sheets or OneDrive, rewritten after every sync. Each opens at its
 * provider in a new tab; Updated says how long ago the last refresh wrote it.
 */
export const ManagedReportsTable = ({ now = () => new Date() }: { now?: () => Date }) => {
  const reports = useManagedReports();
  const columns = useMemo(
    (): DataColumn<ManagedReport>[] => [
      {
        id: 'Type',
        header: 'Type',
        value: (report) => managedTypeLabels[report.Type],
        sortable: true,
      },
      {
        id: 'Provider',
        header: 'Provider',
        value: (report) => managedProviderLabels[report.Provider],
        sortable: true,
        hideOnMobile: true,
      },
      {
        id: 'DisplayName',
        header: 'Name',
        value: (report) => report.DisplayName,
        cell: (report) => (
          <a
            href={report.StorageUrl}
            target="_blank"
            rel="noreferrer noopener"
            className="text-blue-700 underline hover:text-blue-900"
            aria-label={`${report.DisplayName} (opens in ${managedProviderLabels[report.Provider]}, new tab)`}
          >
            {report.DisplayName}
          </a>
        ),
        sortable: true,
      },
      {
        id: 'Seller',
        header: 'Company',
        value: (report) => report.Seller?.CompanyName ?? '',
        sortable: true,
        hideOnMobile: true,
      },
      {
        id: 'updatedAt',
        header: 'Updated',
        value: (report) => report.updatedAt,
        cell: (report) => (
          <time dateTime={report.updatedAt} title={dateTimeOf(report.updatedAt)}>
            {relativeTimeOf(report.updatedAt, now())}
          </time>
        ),
        sortable: true,
      },
    ],
    [now],
  );
  return (
    <DataTable
      label="Live reports"
      data={reports.isError ? [] : reports.data?.rows}
      columns={columns}
      getRowId={(report) => `${report.Provider}-${report.StorageUrl}`}
      emptyText={noLiveReports}
      initialSort={{ id: 'updatedAt', desc: true }}
      pageSize={10}
    />
  );
};
