import { Button } from '@tremor/react';
import { useMemo, useState } from 'react';
import type { ArchivedReport } from '../../../../contracts/api/reports';
import { ApiError } from '../../api/api-error';
import { errorCatalogue } from '../../api/error-catalogue';
import { TextBadge } from '../../components/text-badge';
import { useArchivedReports, useDownloadArchivedReport } from '../../api/queries/reports';
import type { DataColumn } from '../../table/data-columns';
import { DataTable } from '../../table/data-table';
import { tableTexts } from '../../table/empty-texts';
import { archivedTypeLabels, dateTimeOf, fileSizeOf, reportTexts } from './report-texts';

type ArchivedReportsTableProps = {
  /** One seller's reports (the admin sellers table's expanded row); otherwise the tenant's. */
  sellerId?: number;
  /** Shows the seller column (a tenant with several sellers). */
  showSeller?: boolean;
  onError: (message: string) => void;
};

/** The Report Archive: every sent or archived report, newest first, each downloadable. */
export const ArchivedReportsTable = ({ sellerId, showSeller = true, onError }: ArchivedReportsTableProps) => {
  const reports = useArchivedReports(sellerId);
  const download = useDownloadArchivedReport();
  const [downloading, setDownloading] = useState<number | null>(null);

  const columns = useMemo((): DataColumn<ArchivedReport>[] => {
    const all: (DataColumn<ArchivedReport> | false)[] = [
      {
        id: 'Type',
        header: 'Type',
        value: (report) => archivedTypeLabels[report.Type],
        sortable: true,
        searchable: true,
      },
      {
        id: 'Extension',
        header: 'File',
        value: (report) => report.Extension,
        cell: (report) => (
          <TextBadge tone={report.Extension === 'pdf' ? 'red' : 'green'}>{report.Extension}</TextBadge>
        ),
        sortable: true,
      },
      {
        id: 'DisplayName',
        header: 'Name',
        value: (report) => report.DisplayName,
        searchable: true,
        sortable: true,
      },
      showSeller && {
        id: 'Seller',
        header: 'Company',
        value: (report) => report.Seller?.CompanyName ?? '',
        searchable: true,
        sortable: true,
        hideOnMobile: true,
      },
      {
        id: 'Size',
        header: 'Size',
        value: (report) => report.Size,
        cell: (report) => fileSizeOf(report.Size),
        align: 'end',
        hideOnMobile: true,
      },
      {
        id: 'createdAt',
        header: 'Created',
        value: (report) => report.createdAt,
        cell: (report) => dateTimeOf(report.createdAt),
        sortable: true,
      },
    ];
    return all.filter((column): column is DataColumn<ArchivedReport> => column !== false);
  }, [showSeller]);

  const save = async (report: ArchivedReport) => {
    setDownloading(report.Id);
    try {
      await download.mutateAsync(report);
    } catch (error) {
      onError(reportTexts.errorPrefix + (error instanceof ApiError ? error.message : errorCatalogue.default));
    } finally {
      setDownloading(null);
    }
  };

  return (
    <DataTable
      label="Report archive"
      data={reports.isError ? [] : reports.data?.rows}
      columns={columns}
      getRowId={(report) => String(report.Id)}
      emptyText={tableTexts.noArchivedReports}
      noMatchText={tableTexts.noArchivedReports}
      searchLabel="Search the archive"
      initialSort={{ id: 'createdAt', desc: true }}
      pageSize={10}
      rowActions={(report) => (
        <Button
          size="xs"
          variant="secondary"
          loading={downloading === report.Id}
          onClick={() => void save(report)}
          aria-label={`Download ${report.DisplayName}`}
        >
          Download
        </Button>
      )}
    />
  );
};
