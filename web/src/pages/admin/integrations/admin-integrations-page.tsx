import { Button, Card } from '@tremor/react';
import { useState } from 'react';
import type { IntegrationResponse } from '../../../../../contracts/api/integrations';
import { IntegrationProvider } from '../../../../../contracts/events/integration';
import {
  useAdminIntegrations,
  useIntegrationAction,
  type AdminIntegrationsView,
  type IntegrationActionRequest,
} from '../../../api/queries/admin-integrations';
import { ErrorCallout, SuccessCallout } from '../../../components/error-callout';
import { TextBadge } from '../../../components/text-badge';
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
import { CrmSettingsModal } from './crm-settings-modal';
import { TextLink } from '../../../components/text-link';
import { useIntegrationJob, useIntegrationMirrorSummary } from './integration-companies-queries';

type Row = IntegrationResponse;

export const providerLabels: Record<IntegrationProvider, string> = {
  HUBSPOT: 'HubSpot',
  SALESFORCE: 'Salesforce',
  ACTIVE_CAMPAIGN: 'ActiveCampaign',
  GOOGLE: 'Google',
  MICROSOFT: 'Microsoft',
  WORKSPACE: 'Workspace',
};
const providerOptions = IntegrationProvider.options.map((value) => ({ value, label: providerLabels[value] }));
const productOptions = [
  { value: 'REVOPS', label: 'RevOps Pro' },
  { value: 'none', label: 'Empty' },
];

/** The admin actions of admin.md sections 2 and 4, with their typed words (section 5) and failure texts (section 8). */
type ActionKind =
  'sync' | 'purge' | 'unlink' | 'activate' | 'deactivate' | 'lock' | 'unlock' | 'disconnect' | 'delete';
const actionMeta: Record<ActionKind, { label: string; word?: string; failure: string }> = {
  sync: { label: 'Sync', failure: 'There was an error while requesting sync for account.' },
  purge: { label: 'Purge', word: 'purge', failure: 'There was an error while requesting purge for account.' },
  unlink: {
    label: 'Unlink',
    word: 'unlink',
    failure: 'There was an error while requesting unlink for account.',
  },
  activate: {
    label: 'Activate',
    failure: 'There was an error while changing the Active state of the account.',
  },
  deactivate: {
    label: 'Deactivate',
    failure: 'There was an error while changing the Active state of the account.',
  },
  lock: { label: 'Lock', failure: 'There was an error while changing the Locked state of the account.' },
  unlock: { label: 'Unlock', failure: 'There was an error while changing the Locked state of the account.' },
  disconnect: {
    label: 'Disconnect',
    word: 'disconnect',
    failure: 'There was an error while requesting disconnect for account.',
  },
  delete: {
    label: 'Delete',
    word: 'delete',
    failure: 'There was an error while requesting delete for account.',
  },
};

/** The buttons a row offers: the server's Actions for its state, Unlink beside Purge. */
export const rowActionsOf = (row: Row): ActionKind[] => {
  const allowed = new Set(row.Actions ?? []);
  const order: ActionKind[] = [
    'sync',
    'purge',
    'unlink',
    'activate',
    'deactivate',
    'lock',
    'unlock',
    'disconnect',
    'delete',
  ];
  return order.filter((kind) => (kind === 'unlink' ? allowed.has('purge') : allowed.has(kind)));
};

const requestOf = (row: Row, kind: ActionKind, purgeUnlink: boolean): IntegrationActionRequest => {
  switch (kind) {
    case 'sync':
    case 'unlink':
    case 'disconnect':
    case 'delete':
      return { kind, id: row.Id };
    case 'purge':
      return { kind: 'purge', id: row.Id, unlink: purgeUnlink };
    case 'activate':
    case 'deactivate':
      return { kind: 'active', id: row.Id, active: kind === 'activate' };
    case 'lock':
    case 'unlock':
      return { kind: 'locked', id: row.Id, locked: kind === 'lock' };
  }
};

const timeText = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleString('en-US', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' })
    : '';

const accountName = (row: Row) => `${providerLabels[row.Provider]} account ${row.Id}`;

const crmProviders: readonly IntegrationProvider[] = ['HUBSPOT', 'SALESFORCE', 'ACTIVE_CAMPAIGN'];

/** The running sync's live progress (stage and count), as the accounting sync shows its own. */
export const progressText = (job: {
  Status: string;
  Progress: { stage: string; done: number; total: number | null } | null;
}) => {
  if (job.Status === 'created') return 'Waiting to start';
  if (!job.Progress) return job.Status === 'running' ? 'Starting' : job.Status;
  const { stage, done, total } = job.Progress;
  return `${stage}: ${done}${total === null ? '' : ` of ${total}`}`;
};

const RunningSync = ({ jobId }: { jobId: number }) => {
  const job = useIntegrationJob(jobId);
  return (
    <p className="text-xs text-gray-900" role="status">
      Sync job {jobId}: {job.data ? progressText(job.data) : 'Loading...'}
    </p>
  );
};

/** A CRM account's mirror: what its syncs read and matched, and the way to the matched companies. */
const CrmMirror = ({ row }: { row: Row }) => {
  const summary = useIntegrationMirrorSummary(row.Id);
  const counts = summary.data;
  return (
    <section aria-label={`CRM records of ${accountName(row)}`}>
      <h3 className="mb-1 text-sm font-semibold">CRM records</h3>
      {row.Sync.runningJobId !== null && <RunningSync jobId={row.Sync.runningJobId} />}
      <p className="text-xs text-gray-900">
        {counts
          ? `Companies: ${counts.Companies}, Contacts: ${counts.Contacts}, Matched: ${counts.MatchedCompanies}`
          : summary.isError
            ? 'The counts could not be read.'
            : 'Loading...'}
      </p>
      <p className="text-xs">
        <TextLink to={`/admin/integrations/${row.Id}/companies`}>Matched companies</TextLink>
      </p>
    </section>
  );
};

/** The expanded row: additional properties and capabilities of the account. */
const AccountDetails = ({ row }: { row: Row }) => {
  const properties: [string, string][] = [
    ['Auth method', row.AuthMethod],
    ['Account URL', row.URL ?? ''],
    ['Credentials problem', row.CredentialsProblem ?? ''],
    ['Connected', timeText(row.createdAt)],
    ['Disconnected', timeText(row.disconnectedAt)],
    ['Running sync job', row.Sync.runningJobId === null ? '' : String(row.Sync.runningJobId)],
    [
      'Last sync',
      row.Sync.last
        ? `job ${row.Sync.last.jobId}, ${row.Sync.last.outcome}${row.Sync.last.failure ? `: ${row.Sync.last.failure}` : ''}`
        : '',
    ],
    [
      'Last purge',
      row.Purge
        ? `job ${row.Purge.jobId}${row.Purge.unlink ? ' (unlink)' : ''}, ${timeText(row.Purge.requestedAt)}`
        : '',
    ],
    ...Object.entries(row.Settings).map(([key, value]): [string, string] => [
      key,
      value === null ? '' : String(value),
    ]),
  ];
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <section aria-label={`Additional properties of ${accountName(row)}`}>
        <h3 className="mb-1 text-sm font-semibold">Additional properties</h3>
        <dl className="grid grid-cols-2 gap-x-3 text-xs">
          {properties
            .filter(([, value]) => value !== '')
            .map(([key, value]) => (
              <div key={key} className="contents">
                <dt className="font-medium text-gray-700">{key}</dt>
                <dd className="break-words text-gray-900">{value}</dd>
              </div>
            ))}
        </dl>
      </section>
      <section aria-label={`Capabilities of ${accountName(row)}`}>
        <h3 className="mb-1 text-sm font-semibold">Capabilities</h3>
        <p className="text-xs text-gray-900">
          {(row.Actions ?? []).length === 0 ? 'None in this state' : (row.Actions ?? []).join(', ')}
        </p>
      </section>
      {crmProviders.includes(row.Provider) && <CrmMirror row={row} />}
    </div>
  );
};

/**
 * /admin/integrations (admin.md sections 2 and 4): every tenant's CRM and cloud accounts with the
 * actions their state allows (the server decides and enforces them), provider and product filters,
 * expandable rows and typed confirmations for purge, unlink, disconnect and delete.
 */
export const AdminIntegrationsPage = () => {
  const services = useAppServices();
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput, 300);
  const [filters, setFilters] = useState<Omit<AdminIntegrationsView, 'search'>>({
    provider: null,
    product: null,
  });
  const accounts = useAdminIntegrations({ ...filters, search });
  const action = useIntegrationAction();
  const [confirming, setConfirming] = useState<{ row: Row; kind: ActionKind } | null>(null);
  const [editing, setEditing] = useState<Row | null>(null);
  /** Purge's option: unlink the records too (admin.md section 4). */
  const [purgeUnlink, setPurgeUnlink] = useState(false);
  const [notice, setNotice] = useTimedMessage();
  const [failure, setFailure] = useState<string | null>(null);

  const run = async (row: Row, kind: ActionKind) => {
    setFailure(null);
    try {
      const message = await action.mutateAsync(requestOf(row, kind, purgeUnlink));
      setConfirming(null);
      setNotice(message ?? `${actionMeta[kind].label}: done for ${accountName(row)}.`);
    } catch {
      setConfirming(null);
      setFailure(actionMeta[kind].failure);
    }
  };

  const columns: DataColumn<Row>[] = [
    { id: 'Id', header: 'Id', value: (row) => row.Id, sortable: true },
    { id: 'TenantId', header: 'TenantId', value: (row) => row.TenantId, sortable: true, hideOnMobile: true },
    { id: 'Tenant', header: 'Tenant', value: (row) => row.Tenant?.Name ?? '', sortable: true },
    { id: 'Provider', header: 'Provider', value: (row) => providerLabels[row.Provider], sortable: true },
    {
      id: 'Product',
      header: 'Product',
      value: (row) => (row.ProductIdentifier === 'REVOPS' ? 'RevOps Pro' : ''),
      hideOnMobile: true,
    },
    {
      id: 'Active',
      header: 'Active',
      value: (row) => row.Active,
      sortable: true,
      cell: (row) => (
        <TextBadge tone={row.Active ? 'green' : 'gray'}>{row.Active ? 'Active' : 'Inactive'}</TextBadge>
      ),
    },
    {
      // The accounting customers the account's syncs linked to CRM companies; cloud accounts link none.
      id: 'Customers',
      header: 'Customers',
      value: (row) => row.CustomerCount ?? -1,
      sortable: true,
      cell: (row) =>
        row.CustomerCount === null || row.CustomerCount === undefined
          ? ''
          : row.CustomerCount.toLocaleString('en-US'),
    },
    {
      id: 'AuthStatus',
      header: 'Auth Status',
      value: (row) => row.CredentialsStatus,
      sortable: true,
      cell: (row) => (
        <TextBadge tone={row.CredentialsStatus === 'VALID' ? 'green' : 'red'}>
          {row.CredentialsStatus}
        </TextBadge>
      ),
    },
    { id: 'Credentials', header: 'Credentials', value: (row) => row.CredentialsOwner, hideOnMobile: true },
    {
      id: 'SyncDate',
      header: 'Sync Date',
      value: (row) => row.SyncDate,
      sortable: true,
      hideOnMobile: true,
      cell: (row) => timeText(row.SyncDate),
    },
    {
      id: 'Locked',
      header: 'Locked',
      value: (row) => row.Settings.Locked === true,
      hideOnMobile: true,
      cell: (row) => (row.Settings.Locked === true ? 'Locked' : ''),
    },
  ];

  const narrowed = search.trim() !== '' || filters.provider !== null || filters.product !== null;
  return (
    <PageFrame title="Integrations">
      <SuccessCallout message={notice} />
      <ErrorCallout message={failure} />
      <Card>
        {accounts.data && (
          <p className="mb-3 text-sm text-gray-700">
            Total: {accounts.data.total}, Filtered: {accounts.data.filtered}
          </p>
        )}
        <DataTable
          label="Integrations"
          data={accounts.isError ? [] : accounts.data?.rows}
          columns={columns}
          getRowId={(row) => String(row.Id)}
          emptyText={tableTexts.noData}
          noMatchText="No accounts match the search and filters."
          filtered={narrowed}
          initialSort={{ id: 'Id', desc: true }}
          filters={
            <>
              <TextField
                name="integrationSearch"
                label="Search"
                value={searchInput}
                onValueChange={setSearchInput}
              />
              <div className="sm:w-44">
                <SelectField
                  name="provider"
                  label="Provider"
                  value={filters.provider ?? ''}
                  blankLabel="All"
                  options={providerOptions}
                  onValueChange={(value) =>
                    setFilters((f) => ({
                      ...f,
                      provider: value === '' ? null : IntegrationProvider.parse(value),
                    }))
                  }
                />
              </div>
              <div className="sm:w-40">
                <SelectField
                  name="product"
                  label="Product"
                  value={filters.product ?? ''}
                  blankLabel="All"
                  options={productOptions}
                  onValueChange={(value) =>
                    setFilters((f) => ({
                      ...f,
                      product: value === 'REVOPS' || value === 'none' ? value : null,
                    }))
                  }
                />
              </div>
              <Button
                type="button"
                variant="light"
                onClick={() => {
                  setFilters({ provider: null, product: null });
                  setSearchInput('');
                }}
              >
                Reset Filters
              </Button>
            </>
          }
          rowActions={(row) => (
            <div className="flex flex-wrap gap-1">
              <Button
                size="xs"
                variant="light"
                aria-label={`Switch to the tenant of ${accountName(row)}`}
                onClick={() => {
                  setFailure(null);
                  switchToTenant(services, { tenantId: row.TenantId, to: '/platforms' }).catch(() =>
                    setFailure('There was an error while switching to a different tenant.'),
                  );
                }}
              >
                Switch
              </Button>
              <Button
                size="xs"
                variant="light"
                aria-label={`Edit ${accountName(row)}`}
                onClick={() => setEditing(row)}
              >
                Edit
              </Button>
              {rowActionsOf(row).map((kind) => (
                <Button
                  key={kind}
                  size="xs"
                  variant="secondary"
                  aria-label={`${actionMeta[kind].label} ${accountName(row)}`}
                  disabled={action.isPending}
                  onClick={() => {
                    setNotice(null);
                    setPurgeUnlink(false);
                    if (actionMeta[kind].word) setConfirming({ row, kind });
                    else void run(row, kind);
                  }}
                >
                  {actionMeta[kind].label}
                </Button>
              ))}
            </div>
          )}
          expanded={{
            label: (row) => `Details of ${accountName(row)}`,
            render: (row) => <AccountDetails row={row} />,
          }}
        />
      </Card>
      {editing && (
        <CrmSettingsModal
          account={editing}
          title={`Edit ${accountName(editing)}`}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setNotice(`${accountName(editing)} was updated.`);
            setEditing(null);
          }}
        />
      )}
      {confirming && (
        <TypedConfirmDialog
          title={`${actionMeta[confirming.kind].label} ${accountName(confirming.row)}`}
          message={
            confirming.kind === 'unlink' ? (
              'The CRM records are unlinked from their accounting customers; the synced data stays.'
            ) : confirming.kind === 'purge' ? (
              <>
                <p>The synced CRM data of this account is removed.</p>
                <CheckboxField
                  name="purgeUnlink"
                  label="Also unlink the records from their accounting customers"
                  checked={purgeUnlink}
                  onCheckedChange={setPurgeUnlink}
                />
              </>
            ) : confirming.kind === 'disconnect' ? (
              'The credentials are forgotten; the account needs to be connected again.'
            ) : (
              'The account is removed from the tenant.'
            )
          }
          word={actionMeta[confirming.kind].word}
          confirmLabel={actionMeta[confirming.kind].label}
          pending={action.isPending}
          onConfirm={() => void run(confirming.row, confirming.kind)}
          onCancel={() => {
            setNotice(cancellingText(confirming.kind));
            setConfirming(null);
          }}
        />
      )}
    </PageFrame>
  );
};
