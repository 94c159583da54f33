import { Button, Card } from '@tremor/react';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import type { UpdateUserRequest, UserListRow } from '../../../../../contracts/api/users';
import { PrimaryClassification, TenantRole } from '../../../../../contracts/events/user';
import type { z } from 'zod';
import {
  useAdminUpdateUser,
  useAdminUser,
  useAdminUserAction,
  useAdminUsers,
  type AdminUserSort,
  type AdminUsersView,
} from '../../../api/queries/admin-users';
import { isValidationError } from '../../../api/api-error';
import { useDownloadClientReport } from '../../../api/queries/reports';
import { ErrorCallout, SuccessCallout } from '../../../components/error-callout';
import { ModalDialog } from '../../../components/modal-dialog';
import { ExternalLink } from '../../../components/text-link';
import { useTimedMessage } from '../../../components/use-timed-message';
import { CheckboxField } from '../../../forms/checkbox-field';
import { SelectField } from '../../../forms/select-field';
import { TextField } from '../../../forms/text-field';
import { useAppServices } from '../../../session/app-services-context';
import { switchToTenant } from '../../../session/session-actions';
import type { DataColumn } from '../../../table/data-columns';
import { DataTable } from '../../../table/data-table';
import { tableTexts } from '../../../table/empty-texts';
import { PageFrame } from '../../dashboard/stat-card';
import { useDebouncedValue } from '../../sellers/use-debounced-value';
import { TypedConfirmDialog, cancellingText } from '../sellers/typed-confirm-dialog';

type Row = z.infer<typeof UserListRow>;

const PAGE_SIZE = 25;
const sortFields = new Set<string>(['Id', 'Name', 'Email', 'createdAt', 'LastLogin', 'Logins']);

/** admin.md section 8. */
export const userTexts = {
  updateFailed: 'There was an error while updating the user.',
  updated: 'Successfully updated the user.',
  switchFailed: 'There was an error while switching to a different tenant.',
} as const;

/** The marketing-automation contact (by its id, else searched by email) and the analytics user page. */
const marketingLink = (row: Row) =>
  row.ActiveCampaignId
    ? `https://app.activecampaign.com/app/contacts/${encodeURIComponent(row.ActiveCampaignId)}`
    : `https://app.activecampaign.com/app/contacts?search=${encodeURIComponent(row.Email)}`;
const analyticsLink = (row: Row) =>
  `https://analytics.google.com/analytics/web/#/analysis/user-explorer?userId=${row.Id}`;

const timeText = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleString('en-US', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' })
    : 'Never';

const classificationOptions = PrimaryClassification.options.map((value) => ({
  value,
  label: value === 'ADVISOR' ? 'Advisor' : 'Member',
}));
const roleOptions = TenantRole.options.map((value) => ({
  value,
  label: value === 'ADMIN' ? 'Admin' : 'User',
}));

/**
 * The client-users table of a user (admin.md section 2): each tenant with the user's name, email and
 * role there; Switch goes into that tenant.
 */
const UserTenants = ({ row, onFailure }: { row: Row; onFailure: (message: string) => void }) => {
  const services = useAppServices();
  const user = useAdminUser(row.Id);
  if (user.isError) return <p className="text-sm text-red-700">{user.error.message}</p>;
  if (!user.data) return <p className="text-sm text-gray-600">{tableTexts.loading}</p>;
  if (user.data.Tenants.length === 0)
    return <p className="text-sm text-gray-600">{row.Name} has no tenants.</p>;
  return (
    <table className="min-w-full text-sm" aria-label={`Tenants of ${row.Name}`}>
      <thead>
        <tr className="text-left text-xs uppercase text-gray-600">
          <th scope="col" className="px-2 py-1">
            Tenant
          </th>
          <th scope="col" className="px-2 py-1">
            User
          </th>
          <th scope="col" className="px-2 py-1">
            Email
          </th>
          <th scope="col" className="px-2 py-1">
            Role
          </th>
          <th scope="col" className="px-2 py-1">
            Status
          </th>
          <th scope="col" className="px-2 py-1">
            <span className="sr-only">Switch</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {user.data.Tenants.map((tenant) => (
          <tr key={tenant.Id} className={tenant.disabled ? 'bg-amber-50' : undefined}>
            <td className="px-2 py-1">
              {tenant.Name} ({tenant.Id})
            </td>
            <td className="px-2 py-1">{row.Name}</td>
            <td className="px-2 py-1">{row.Email}</td>
            <td className="px-2 py-1">{tenant.Membership.Role}</td>
            <td className="px-2 py-1">{tenant.Membership.Status}</td>
            <td className="px-2 py-1">
              <Button
                size="xs"
                variant="light"
                aria-label={`Switch to ${tenant.Name}`}
                onClick={() => {
                  switchToTenant(services, { tenantId: tenant.Id, to: '/overview' }).catch(() =>
                    onFailure(userTexts.switchFailed),
                  );
                }}
              >
                Switch
              </Button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
};

type EditValues = {
  Name: string;
  Email: string;
  PrimaryClassification: string;
  ActiveCampaignId: string;
  JobTitle: string;
  Role: string;
  AssignToAllClients: boolean;
};

/** The user edit of a platform admin (admin.md section 5). */
const EditUserModal = ({ row, onClose, onSaved }: { row: Row; onClose: () => void; onSaved: () => void }) => {
  const update = useAdminUpdateUser();
  const [values, setValues] = useState<EditValues>({
    Name: row.Name,
    Email: row.Email,
    PrimaryClassification: row.PrimaryClassification,
    ActiveCampaignId: row.ActiveCampaignId ?? '',
    JobTitle: row.JobTitle ?? '',
    Role: '',
    AssignToAllClients: row.AssignToAllClients,
  });
  const [errors, setErrors] = useState<Partial<Record<keyof EditValues, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const set = (field: keyof EditValues) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const body: UpdateUserRequest = {
      Name: values.Name.trim(),
      Email: values.Email.trim(),
      PrimaryClassification: PrimaryClassification.parse(values.PrimaryClassification),
      ActiveCampaignId: values.ActiveCampaignId.trim() || null,
      JobTitle: values.JobTitle.trim() || null,
      Role: values.Role === '' ? null : TenantRole.parse(values.Role),
      // Only when set (admin.md section 5).
      ...(values.AssignToAllClients ? { AssignToAllClients: true } : {}),
    };
    try {
      await update.mutateAsync({ userId: row.Id, body });
      onSaved();
    } catch (error) {
      if (isValidationError(error)) {
        setErrors(
          Object.fromEntries(
            Object.entries(error.properties)
              .filter(([field]) => field in values)
              .map(([field, code]) => [
                field,
                field === 'Email' && code === 'not_unique' ? 'The email is already in use.' : String(code),
              ]),
          ),
        );
      }
      setFailure(userTexts.updateFailed);
    }
  };

  return (
    <ModalDialog open title="Update User" width="wide" onClose={onClose}>
      <form
        noValidate
        className="space-y-4"
        aria-label="Update User"
        onSubmit={(event) => void submit(event)}
      >
        <ErrorCallout message={failure} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            name="Name"
            label="Name"
            value={values.Name}
            onValueChange={set('Name')}
            error={errors.Name}
          />
          <TextField
            name="Email"
            label="Email"
            value={values.Email}
            onValueChange={set('Email')}
            error={errors.Email}
          />
          <SelectField
            name="PrimaryClassification"
            label="Primary classification"
            value={values.PrimaryClassification}
            options={classificationOptions}
            onValueChange={set('PrimaryClassification')}
          />
          <TextField
            name="ActiveCampaignId"
            label="ActiveCampaign Id"
            value={values.ActiveCampaignId}
            onValueChange={set('ActiveCampaignId')}
            error={errors.ActiveCampaignId}
          />
          <TextField
            name="JobTitle"
            label="Job title"
            value={values.JobTitle}
            onValueChange={set('JobTitle')}
            error={errors.JobTitle}
          />
          <SelectField
            name="Role"
            label="Role in your current tenant"
            value={values.Role}
            blankLabel="Unchanged"
            options={roleOptions}
            onValueChange={set('Role')}
          />
        </div>
        <CheckboxField
          name="AssignToAllClients"
          label="Assign to all clients"
          checked={values.AssignToAllClients}
          onCheckedChange={(checked) => setValues((v) => ({ ...v, AssignToAllClients: checked }))}
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
};

/**
 * /admin/users (admin.md section 2): every user, searched, sorted and paged by the server; expandable
 * rows with the user's tenants (switch into one), edit, Reset Auth and Delete with their typed words.
 */
export const AdminUsersPage = () => {
  const [params] = useSearchParams();
  const [searchInput, setSearchInput] = useState(() => params.get('search') ?? '');
  const search = useDebouncedValue(searchInput, 300);
  const [order, setOrder] = useState<Omit<AdminUsersView, 'search' | 'pageSize'>>({
    sort: 'Id',
    direction: 'desc',
    pageIndex: 0,
  });
  const [pageSearch, setPageSearch] = useState(search);
  if (pageSearch !== search) {
    setPageSearch(search);
    setOrder((current) => ({ ...current, pageIndex: 0 }));
  }
  const users = useAdminUsers({ search, ...order, pageSize: PAGE_SIZE });
  const act = useAdminUserAction();
  const clientReport = useDownloadClientReport();
  const [editing, setEditing] = useState<Row | null>(null);
  const [confirming, setConfirming] = useState<{ row: Row; kind: 'delete' | 'reset' } | null>(null);
  const [notice, setNotice] = useTimedMessage();
  const [failure, setFailure] = useState<string | null>(null);

  const columns: DataColumn<Row>[] = [
    { id: 'Id', header: 'Id', value: (row) => row.Id, sortable: true },
    { id: 'Name', header: 'Name', value: (row) => row.Name, sortable: true },
    { id: 'Email', header: 'Email', value: (row) => row.Email, sortable: true },
    {
      id: 'Classification',
      header: 'Classification',
      value: (row) => row.PrimaryClassification,
      hideOnMobile: true,
    },
    { id: 'Tenants', header: 'Tenants', value: (row) => row.TenantCount, align: 'end', hideOnMobile: true },
    {
      id: 'Logins',
      header: 'Logins',
      value: (row) => row.Logins,
      sortable: true,
      align: 'end',
      hideOnMobile: true,
    },
    {
      id: 'LastLogin',
      header: 'Last login',
      value: (row) => row.LastLogin,
      sortable: true,
      hideOnMobile: true,
      cell: (row) => timeText(row.LastLogin),
    },
    {
      id: 'Links',
      header: 'Links',
      hideOnMobile: true,
      cell: (row) => (
        <span className="flex gap-2">
          <ExternalLink
            href={marketingLink(row)}
            target="_blank"
            rel="noreferrer"
            aria-label={`Marketing contact of ${row.Name}`}
          >
            Marketing
          </ExternalLink>
          <ExternalLink
            href={analyticsLink(row)}
            target="_blank"
            rel="noreferrer"
            aria-label={`Analytics of ${row.Name}`}
          >
            Analytics
          </ExternalLink>
        </span>
      ),
    },
  ];

  const confirm = async () => {
    if (!confirming) return;
    const { row, kind } = confirming;
    setFailure(null);
    try {
      await act.mutateAsync({ kind, userId: row.Id });
      setConfirming(null);
      setNotice(kind === 'delete' ? `${row.Name} was deleted.` : `The sign-in of ${row.Name} was reset.`);
    } catch (error) {
      setConfirming(null);
      setFailure(`There was an error: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  return (
    <PageFrame title="Users">
      <SuccessCallout message={notice} />
      <ErrorCallout message={failure} />
      <Card>
        {users.data && <p className="mb-3 text-sm text-gray-700">Total: {users.data.total}</p>}
        <DataTable
          label="Users"
          data={users.isError ? [] : users.data?.users}
          columns={columns}
          getRowId={(row) => String(row.Id)}
          searchLabel="Search users"
          emptyText={tableTexts.noUsers}
          noMatchText={tableTexts.noUsers}
          filtered={search.trim() !== ''}
          server={{
            rowCount: users.data?.total ?? 0,
            pageIndex: order.pageIndex,
            pageSize: PAGE_SIZE,
            sort: { id: order.sort, desc: order.direction === 'desc' },
            search: searchInput,
            onPage: (pageIndex) => setOrder((current) => ({ ...current, pageIndex })),
            onSort: (sort) => {
              if (!sortFields.has(sort.id)) return;
              setOrder({
                sort: sort.id as AdminUserSort,
                direction: sort.desc ? 'desc' : 'asc',
                pageIndex: 0,
              });
            },
            onSearch: setSearchInput,
          }}
          rowActions={(row) => (
            <div className="flex gap-1">
              {row.PrimaryClassification === 'ADVISOR' && (
                <Button
                  size="xs"
                  variant="light"
                  aria-label={`PDF client report of ${row.Name}`}
                  loading={clientReport.isPending && clientReport.variables?.userId === row.Id}
                  onClick={() => {
                    setFailure(null);
                    clientReport.mutate(
                      { userId: row.Id, format: 'pdf' },
                      {
                        onError: (error) =>
                          setFailure(
                            `There was an error: ${error instanceof Error ? error.message : String(error)}`,
                          ),
                      },
                    );
                  }}
                >
                  PDF
                </Button>
              )}
              <Button
                size="xs"
                variant="secondary"
                aria-label={`Edit ${row.Name}`}
                onClick={() => setEditing(row)}
              >
                Edit
              </Button>
              <Button
                size="xs"
                variant="secondary"
                aria-label={`Reset Auth of ${row.Name}`}
                onClick={() => setConfirming({ row, kind: 'reset' })}
              >
                Reset Auth
              </Button>
              <Button
                size="xs"
                variant="secondary"

                aria-label={`Delete ${row.Name}`}
                onClick={() => setConfirming({ row, kind: 'delete' })}
              >
                Delete
              </Button>
            </div>
          )}
          expanded={{
            label: (row) => `Tenants of ${row.Name}`,
            render: (row) => <UserTenants row={row} onFailure={setFailure} />,
          }}
        />
      </Card>
      {editing && (
        <EditUserModal
          row={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            setNotice(userTexts.updated);
          }}
        />
      )}
      {confirming && (
        <TypedConfirmDialog
          title={
            confirming.kind === 'delete'
              ? `Delete ${confirming.row.Name}`
              : `Reset Auth of ${confirming.row.Name}`
          }
          message={
            confirming.kind === 'delete'
              ? `${confirming.row.Email} is deleted: their name and email become unreadable and every session ends.`
              : `${confirming.row.Email} must set a new password or sign in again; every session ends.`
          }
          word={confirming.kind}
          confirmLabel={confirming.kind === 'delete' ? 'Delete' : 'Reset Auth'}
          pending={act.isPending}
          onConfirm={() => void confirm()}
          onCancel={() => {
            setNotice(cancellingText(confirming.kind === 'delete' ? 'delete user' : 'reset auth'));
            setConfirming(null);
          }}
        />
      )}
    </PageFrame>
  );
};
