import { useMemo } from 'react';
import type { ManagedReport } from '../../../../contracts/api/reports';
import { useManagedReports } from '../../api/queries/reports';
import type { DataColumn } from '../../table/data-columns';
import { DataTable } from '../../table/data-table';
import { tableTexts } from '../../table/empty-texts';
import { dateTimeOf } from './report-texts';

/** Live Reports: reports kept up to date in a CRM or cloud drive (portal.md section 2.3). */
export const ManagedReportsTable = () => {
  const reports = useManagedReports();
  const columns = useMemo(
    (): DataColumn<ManagedReport>[] => [
      { id: 'Type', header: 'Type', value: (report) => report.Type, sortable: true },
      { id: 'Provider', header: 'Provider', value: (report) => report.Provider, sortable: true },
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
        hideOnMobile: true,
      },
      {
        id: 'updatedAt',
        header: 'Updated',
        value: (report) => report.updatedAt,
        cell: (report) => dateTimeOf(report.updatedAt),
        sortable: true,
      },
    ],
    [],
  );
  return (
    <DataTable
      label="Live reports"
      data={reports.isError ? [] : reports.data?.rows}
      columns={columns}
      getRowId={(report) => `${report.Provider}-${report.StorageUrl}`}
      emptyText={tableTexts.noData}
      initialSort={{ id: 'updatedAt', desc: true }}
      pageSize={10}
    />
  );
};
