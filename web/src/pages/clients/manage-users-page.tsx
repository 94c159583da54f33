import { Card } from '@tremor/react';
import { useMemo } from 'react';
import type { z } from 'zod';
import type { ClientUserRow as ClientUserRowSchema } from '../../../../contracts/api/clients';
import { useClientUsers } from '../../api/queries/clients';
import type { DataColumn } from '../../table/data-columns';
import { DataTable } from '../../table/data-table';
import { tableTexts } from '../../table/empty-texts';
import { useSwitchClient } from './use-switch-client';

type ClientUserRow = z.infer<typeof ClientUserRowSchema>;

const linkClasses =
  'rounded text-left font-medium text-blue-700 underline-offset-2 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600';

const searchTextOf = (row: ClientUserRow) => `${row.Client.Name} ${row.User.Name} ${row.Email}`;

/** Manage Users Across Your Clients: Client (click to switch), User, Email, Job Function, Role. */
export const ManageUsersPage = () => {
  const users = useClientUsers();
  const { switchTo, switching, failureDialog } = useSwitchClient();

  const columns = useMemo(
    (): DataColumn<ClientUserRow>[] => [
      {
        id: 'Client',
        header: 'Client',
        value: (row) => row.Client.Name,
        sortable: true,
        cell: (row) => (
          <button
            type="button"
            className={linkClasses}
            disabled={switching !== null}
            onClick={() => void switchTo(row.Client.Id)}
            aria-label={`Switch to ${row.Client.Name}`}
          >
            {row.Client.Name}
          </button>
        ),
      },
      { id: 'User', header: 'User', value: (row) => row.User.Name, sortable: true },
      { id: 'Email', header: 'Email', value: (row) => row.Email, sortable: true, hideOnMobile: true },
      {
        id: 'JobTitle',
        header: 'Job Function',
        value: (row) => row.JobTitle,
        sortable: true,
        hideOnMobile: true,
      },
      { id: 'Role', header: 'Role', value: (row) => row.Role, sortable: true },
    ],
    [switching, switchTo],
  );

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <h1 className="text-xl font-semibold text-gray-900">Manage Users Across Your Clients</h1>
      <Card>
        <DataTable
          label="Users across your clients"
          data={users.isError ? [] : users.data?.users}
          columns={columns}
          getRowId={(row) => `${row.Client.Id}-${row.User.Id}`}
          emptyText={tableTexts.noUsers}
          noMatchText={tableTexts.noUsers}
          searchLabel="Search users"
          searchText={searchTextOf}
          initialSort={{ id: 'Client' }}
        />
      </Card>
      {failureDialog}
    </div>
  );
};
