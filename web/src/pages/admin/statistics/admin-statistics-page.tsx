import { Button, Card } from '@tremor/react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AnalyticsStatsResponse } from '../../../../../contracts/api/analytics';
import { DatasetType } from '../../../../../contracts/api/jobs';
import { ErrorCallout } from '../../../components/error-callout';
import { ModalDialog } from '../../../components/modal-dialog';
import { TextField } from '../../../forms/text-field';
import { useAppServices } from '../../../session/app-services-context';
import { PageFrame, StatCard } from '../../dashboard/stat-card';
import { downloadFailureTitle, errorText, useDownloadDataset } from '../datasets/dataset-queries';

const count = (value: number) => value.toLocaleString('en-US');
/** Cents as an amount: the platform adds every tenant's invoices, so no single currency applies. */
const amount = (cents: number) =>
  (cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * /admin/statistics (admin.md section 2, Statistics screen): partners, active and inactive sellers,
 * customers, invoices and invoice revenue (the ledger's over the trailing 36 months, from the analytics
 * consumers), and the download of a seller's newest generated data sets.
 */
export const AdminStatisticsPage = () => {
  const { api } = useAppServices();
  const stats = useQuery({
    queryKey: ['admin-statistics'],
    queryFn: () => api.get('/api/stats', { schema: AnalyticsStatsResponse }),
  });
  const [sellerInput, setSellerInput] = useState('');
  const [sellerError, setSellerError] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState<{ dataset: DatasetType; message: string } | null>(null);
  const download = useDownloadDataset();

  const startDownload = (dataset: DatasetType) => {
    const sellerId = sellerInput.trim();
    if (!/^\d{1,10}$/.test(sellerId) || Number(sellerId) <= 0) {
      setSellerError('Enter a seller id.');
      return;
    }
    setSellerError(undefined);
    download.mutate(
      { sellerId: Number(sellerId), dataset },
      { onError: (error) => setFailure({ dataset, message: errorText(error) }) },
    );
  };

  const figures = stats.data?.stats;
  return (
    <PageFrame title="Statistics">
      {stats.isError && <ErrorCallout message={errorText(stats.error)} />}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Statistics">
        <StatCard label="Partners" value={figures ? count(figures.partners) : 'Loading...'} />
        <StatCard label="Active Sellers" value={figures ? count(figures.activeSellers) : 'Loading...'} />
        <StatCard label="Inactive Sellers" value={figures ? count(figures.inactiveSellers) : 'Loading...'} />
        <StatCard label="Customers (T36M)" value={figures ? count(figures.customers) : 'Loading...'} />
        <StatCard label="Invoices (T36M)" value={figures ? count(figures.invoices) : 'Loading...'} />
        <StatCard
          label="Invoice Revenue (T36M)"
          value={figures ? amount(figures.invoiceRevenue) : 'Loading...'}
        />
        <StatCard label="Sales (All Time)" value={figures ? amount(figures.salesAllTime) : 'Loading...'} />
      </div>
      <Card>
        <h2 className="mb-3 text-base font-semibold text-gray-900">Data-set downloads</h2>
        <p className="mb-3 text-sm text-gray-700">
          The seller&apos;s newest generated file of each data set (generate them on the Data Sets page).
        </p>
        <div className="mb-3 sm:w-48">
          <TextField
            name="datasetSellerId"
            label="Seller id"
            value={sellerInput}
            onValueChange={setSellerInput}
            error={sellerError}
          />
        </div>
        <div className="flex flex-wrap gap-2">
          {DatasetType.options.map((dataset) => (
            <Button
              key={dataset}
              size="xs"
              variant="secondary"
              loading={download.isPending && download.variables?.dataset === dataset}
              onClick={() => startDownload(dataset)}
            >
              {dataset}
            </Button>
          ))}
        </div>
      </Card>
      <ModalDialog
        open={failure !== null}
        title={failure ? downloadFailureTitle(failure.dataset) : ''}
        role="alertdialog"
        onClose={() => setFailure(null)}
      >
        <p className="text-sm text-gray-800">{failure?.message}</p>
        <Button onClick={() => setFailure(null)}>Close</Button>
      </ModalDialog>
    </PageFrame>
  );
};
