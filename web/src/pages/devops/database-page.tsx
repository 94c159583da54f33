import { Card } from '@tremor/react';
import type { DatabaseResponse } from '../../../../contracts/api/devops';
import { useDatabaseStats } from '../../api/queries/admin-devops';
import type { DataColumn } from '../../table/data-columns';
import { DataTable } from '../../table/data-table';
import { tableTexts } from '../../table/empty-texts';
import { PageFrame } from '../dashboard/stat-card';

type Collection = DatabaseResponse['collections'][number];

const columns: DataColumn<Collection>[] = [
  { id: 'name', header: 'Name', value: (row) => row.name, sortable: true, searchable: true },
  { id: 'count', header: 'Documents', value: (row) => row.count, sortable: true, align: 'end' },
  {
    id: 'fields',
    header: 'Fields',
    value: (row) => row.fields.join(', '),
    searchable: true,
    cell: (row) => <span className="whitespace-normal break-words text-xs">{row.fields.join(', ')}</span>,
  },
];

/** /devops/database (admin.md section 2): per read-store collection its name, document count and fields. */
export const DatabasePage = () => {
  const stats = useDatabaseStats();
  return (
    <PageFrame title="Database">
      <Card>
        {stats.data && (
          <p className="mb-3 text-sm text-gray-700">
            {stats.data.kind === 'embedded' ? 'Embedded SQLite read store' : 'MongoDB read store'},{' '}
            {stats.data.collections.length} collections.
          </p>
        )}
        {stats.isError && (
          <p role="alert" className="mb-3 text-sm text-red-700">
            {stats.error.message}
          </p>
        )}
        <DataTable
          label="Collections"
          data={stats.isError ? [] : stats.data?.collections}
          columns={columns}
          getRowId={(row) => row.name}
          searchLabel="Search collections"
          emptyText={tableTexts.noData}
          initialSort={{ id: 'name' }}
          pageSize={100}
        />
      </Card>
    </PageFrame>
  );
};
