import { Button, Card } from '@tremor/react';
import { useState } from 'react';
import {
  noSellerSelected,
  type DatasetContentType,
  type DatasetType,
} from '../../../../../contracts/api/jobs';
import type { SellerResponse } from '../../../../../contracts/api/sellers';
import { useEveryTenantSellers } from '../../../api/queries/platforms';
import { ErrorCallout, SuccessCallout } from '../../../components/error-callout';
import { ModalDialog } from '../../../components/modal-dialog';
import { useTimedMessage } from '../../../components/use-timed-message';
import { SelectField } from '../../../forms/select-field';
import { TextField } from '../../../forms/text-field';
import type { DataColumn } from '../../../table/data-columns';
import { DataTable } from '../../../table/data-table';
import { PageFrame } from '../../dashboard/stat-card';
import { useDebouncedValue } from '../../sellers/use-debounced-value';
import {
  downloadFailureTitle,
  errorText,
  useDownloadDataset,
  useRequestDatasets,
  useSellerDatasets,
} from './dataset-queries';

/** admin.md section 2: the data-sets page's tabs and the data sets each generates. */
export const datasetTabs: { name: string; datasets: DatasetType[] }[] = [
  { name: 'AI/ML', datasets: ['ar_forecast_aiml'] },
  { name: 'DSO', datasets: ['ar_forecast_dso'] },
  {
    name: 'Forecast',
    datasets: ['ar_forecast_summary', 'ar_forecast_validations', 'ar_customer_forecast_validations'],
  },
  { name: 'Analytics', datasets: ['seller_analytics_weekly', 'seller_analytics_monthly'] },
];

const contentTypesOf = (dataset: DatasetType): DatasetContentType[] =>
  dataset === 'ar_forecast_aiml' ? ['json', 'csv', 'awsForecast'] : ['json', 'csv'];

const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value.trim());
const sellerName = (seller: SellerResponse) => seller.CompanyName ?? `Seller ${seller.Id}`;
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

type Failure = { dataset: DatasetType; message: string };

/** The expandable row: the seller's generated files, each downloadable. */
const SellerFiles = ({
  sellerId,
  onDownload,
}: {
  sellerId: number;
  onDownload: (input: { sellerId: number; dataset: DatasetType; bytes: number }) => void;
}) => {
  const files = useSellerDatasets(sellerId);
  if (files.isPending) return <p className="text-sm text-gray-600">Loading...</p>;
  if (files.isError) return <ErrorCallout message={errorText(files.error)} />;
  if (files.data.files.length === 0) return <p className="text-sm text-gray-600">No Data</p>;
  return (
    <ul className="space-y-1 text-sm text-gray-800" aria-label={`Data sets of seller ${sellerId}`}>
      {files.data.files.map((file) => (
        <li key={file.jobId} className="flex flex-wrap items-center gap-2">
          <span>
            {file.fileName} ({file.rows} rows, {megabytes(file.bytes)}, job {file.jobId})
          </span>
          <Button
            size="xs"
            variant="secondary"
            aria-label={`Download ${file.fileName}`}
            onClick={() => onDownload({ sellerId, dataset: file.dataset, bytes: file.bytes })}
          >
            Download
          </Button>
        </li>
      ))}
    </ul>
  );
};

/**
 * /admin/datasets (admin.md sections 2, 5, 8 and 9): generate the data sets of the selected sellers
 * (one job each; the range and content type default to the spec's) and download their files.
 */
export const AdminDatasetsPage = () => {
  const [tab, setTab] = useState(0);
  const [datasetOfTab, setDatasetOfTab] = useState<DatasetType[]>(datasetTabs.map((t) => t.datasets[0]!));
  const dataset = datasetOfTab[tab]!;
  const [contentType, setContentType] = useState<DatasetContentType>('json');
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput, 300);
  const sellers = useEveryTenantSellers(search);
  const [selected, setSelected] = useState<string[]>([]);
  const [notice, setNotice] = useTimedMessage();
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const request = useRequestDatasets();
  const download = useDownloadDataset();

  const chooseDataset = (value: DatasetType) => {
    setDatasetOfTab((current) => current.map((d, index) => (index === tab ? value : d)));
    if (!contentTypesOf(value).includes(contentType)) setContentType('json');
  };

  const generate = () => {
    setProblem(null);
    if (selected.length === 0) {
      setProblem(noSellerSelected);
      return;
    }
    if ((startDate && !isDay(startDate)) || (endDate && !isDay(endDate))) {
      setProblem('Enter dates as YYYY-MM-DD, or leave them blank for the default range.');
      return;
    }
    request.mutate(
      {
        dataset,
        contentType,
        sellerIds: selected.map(Number),
        ...(startDate ? { startDate: startDate.trim() } : {}),
        ...(endDate ? { endDate: endDate.trim() } : {}),
      },
      {
        onSuccess: ({ jobs }) => setNotice(`Jobs created for ${jobs.length} selected sellers`),
        onError: (error) => setProblem(errorText(error)),
      },
    );
  };

  const startDownload = (input: { sellerId: number; dataset: DatasetType; bytes?: number }) =>
    download.mutate(input, {
      onError: (error) => setFailure({ dataset: input.dataset, message: errorText(error) }),
    });

  const columns: DataColumn<SellerResponse>[] = [
    { id: 'Id', header: 'Id', value: (seller) => seller.Id, sortable: true },
    { id: 'CompanyName', header: 'Company', value: sellerName, sortable: true, searchable: true },
    { id: 'TenantId', header: 'Tenant', value: (seller) => seller.TenantId, hideOnMobile: true },
    { id: 'Provider', header: 'Provider', value: (seller) => seller.Provider, hideOnMobile: true },
  ];

  return (
    <PageFrame title="Data Sets">
      <Card>
        <div role="tablist" aria-label="Data set groups" className="mb-4 flex flex-wrap gap-2">
          {datasetTabs.map((group, index) => (
            <Button
              key={group.name}
              role="tab"
              aria-selected={index === tab}
              variant={index === tab ? 'primary' : 'secondary'}
              size="xs"
              onClick={() => {
                setTab(index);
                if (!contentTypesOf(datasetOfTab[index]!).includes(contentType)) setContentType('json');
              }}
            >
              {group.name}
            </Button>
          ))}
        </div>
        <div role="tabpanel" aria-label={datasetTabs[tab]!.name} className="space-y-3">
          <div className="flex flex-wrap gap-3">
            <div className="sm:w-80">
              <SelectField
                name="dataset"
                label="Data set"
                value={dataset}
                options={datasetTabs[tab]!.datasets.map((value) => ({ value, label: value }))}
                onValueChange={(value) => chooseDataset(value as DatasetType)}
              />
            </div>
            <div className="sm:w-40">
              <SelectField
                name="contentType"
                label="Content type"
                value={contentType}
                options={contentTypesOf(dataset).map((value) => ({ value, label: value }))}
                onValueChange={(value) => setContentType(value as DatasetContentType)}
              />
            </div>
            <div className="sm:w-40">
              <TextField
                name="startDate"
                label="Start date"
                hint="Blank: the default range"
                value={startDate}
                onValueChange={setStartDate}
              />
            </div>
            <div className="sm:w-40">
              <TextField name="endDate" label="End date" value={endDate} onValueChange={setEndDate} />
            </div>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <Button onClick={generate} loading={request.isPending}>
              Generate
            </Button>
            <span className="text-sm text-gray-700">{selected.length} selected</span>
          </div>
          <ErrorCallout message={problem} />
          <SuccessCallout message={notice} />
        </div>
      </Card>
      <Card>
        <DataTable
          label="Sellers"
          data={sellers.isError ? [] : sellers.data?.rows}
          columns={columns}
          getRowId={(seller) => String(seller.Id)}
          rowName={sellerName}
          searchLabel="Search sellers"
          emptyText="No Data"
          noMatchText="No sellers match the search."
          selection={{ selected, onChange: setSelected }}
          rowActions={(seller) => (
            <Button
              size="xs"
              variant="secondary"
              aria-label={`Download ${dataset} of ${sellerName(seller)}`}
              onClick={() => startDownload({ sellerId: seller.Id, dataset })}
            >
              Download
            </Button>
          )}
          expanded={{
            label: (seller) => `Data sets of ${sellerName(seller)}`,
            render: (seller) => <SellerFiles sellerId={seller.Id} onDownload={startDownload} />,
          }}
          server={{
            rowCount: sellers.data?.filtered ?? 0,
            pageIndex: 0,
            pageSize: 50,
            sort: { id: 'CompanyName', desc: false },
            search: searchInput,
            onPage: () => undefined,
            onSort: () => undefined,
            onSearch: setSearchInput,
          }}
        />
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
