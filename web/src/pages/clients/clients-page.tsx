import { Button, Card } from '@tremor/react';
import { useMemo, useState } from 'react';
import type { ClientRow } from '../../../../contracts/api/clients';
import { useClients } from '../../api/queries/clients';
import { useDownloadClientReport } from '../../api/queries/reports';
import { ModalDialog } from '../../components/modal-dialog';
import { SuccessCallout } from '../../components/error-callout';
import { useTimedMessage } from '../../components/use-timed-message';
import { SelectField } from '../../forms/select-field';
import { factsOf } from '../../session/session-facts';
import { useSession } from '../../session/session-query';
import type { DataColumn } from '../../table/data-columns';
import { DataTable } from '../../table/data-table';
import { tableTexts } from '../../table/empty-texts';
import { BulkEditModal } from './bulk-edit-modal';
import {
  canChangePlan,
  canSwitchTo,
  filterClients,
  isDemoClient,
  isFiltering,
  noClientFilters,
  plansOf,
  type ClientFilters,
} from './client-filters';
import { NewClientModal } from './new-client-modal';
import { useSwitchClient } from './use-switch-client';

const noClients: readonly ClientRow[] = [];

const linkClasses =
  'rounded text-left font-medium text-blue-700 underline-offset-2 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600';

/**
 * The advisor's clients (portal.md section 2.3): search, filters, sort by name with Demo Client last,
 * selection with bulk edit, switch, change plan and add client.
 */
export const ClientsPage = () => {
  const session = useSession();
  const facts = factsOf(session);
  const clients = useClients();
  const { switchTo, switching, failureDialog } = useSwitchClient();
  const [filters, setFilters] = useState<ClientFilters>(noClientFilters);
  const [selected, setSelected] = useState<string[]>([]);
  const [editing, setEditing] = useState<{ ids: number[]; planOnly: boolean } | null>(null);
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useTimedMessage();
  const clientReport = useDownloadClientReport();
  const [reportFailure, setReportFailure] = useState<string | null>(null);
  const downloadClientReport = async () => {
    try {
      await clientReport.mutateAsync({ userId: session.user.Id, format: 'pdf' });
    } catch (error) {
      // portal.md section 8: a client report failure shows the error in a dialog.
      setReportFailure(error instanceof Error ? error.message : String(error));
    }
  };
  const viewer = {
    isPlatformAdmin: facts.isPlatformAdmin,
    isTenantAdmin: facts.isTenantAdmin,
    tenantId: session.tenant?.Id ?? null,
  };

  // A load failure is logged by the API client and shows as an empty table (portal.md section 8).
  const all = clients.isError ? noClients : clients.data?.clients;
  const shown = useMemo(() => (all ? filterClients(all, filters) : undefined), [all, filters]);
  const plans = useMemo(() => plansOf(all ?? []), [all]);

  const columns = useMemo(
    (): DataColumn<ClientRow>[] => [
      {
        id: 'Name',
        header: 'Client',
        value: (row) => row.Name,
        sortable: true,
        searchable: true,
        cell: (row) =>
          canSwitchTo(row, facts.isPlatformAdmin) ? (
            <button
              type="button"
              className={linkClasses}
              disabled={switching !== null}
              onClick={() => void switchTo(row.Id)}
              aria-label={`Switch to ${row.Name}`}
            >
              {row.Name}
            </button>
          ) : (
            row.Name
          ),
      },
      { id: 'Role', header: 'My Role', value: (row) => row.Role, sortable: true, hideOnMobile: true },
      {
        id: 'Platforms',
        header: 'Platforms',
        value: (row) => row.Platforms.join(', '),
        cell: (row) => (row.Platforms.length > 0 ? row.Platforms.join(', ') : 'None'),
        sortable: true,
      },
      {
        id: 'Recipients',
        header: 'Recipients',
        value: (row) => row.Recipients,
        sortable: true,
        hideOnMobile: true,
      },
      {
        id: 'Plan',
        header: 'Plan',
        value: (row) => row.Subscription.PlanName ?? row.Subscription.PlanIdentifier,
        sortable: true,
        hideOnMobile: true,
      },
      {
        id: 'HasClientMatch',
        header: 'Client match',
        value: (row) => (row.HasClientMatch ? 'Yes' : 'No'),
        hideOnMobile: true,
      },
    ],
    [facts.isPlatformAdmin, switching, switchTo],
  );

  const setFilter = (field: keyof ClientFilters) => (value: string) =>
    setFilters((current) => ({ ...current, [field]: value }));

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <h1 className="text-xl font-semibold text-gray-900">Clients</h1>
      <SuccessCallout message={notice} />
      <Card>
        <DataTable
          label="Clients"
          data={shown}
          columns={columns}
          getRowId={(row) => String(row.Id)}
          rowName={(row) => row.Name}
          emptyText={tableTexts.noClients}
          noMatchText={tableTexts.noClientsMatched}
          filtered={isFiltering(filters)}
          searchLabel="Search clients"
          initialSort={{ id: 'Name' }}
          keepLast={isDemoClient}
          selection={{ selected, onChange: setSelected }}
          filters={
            <>
              <div className="w-full sm:w-44">
                <SelectField
                  name="platformFilter"
                  label="Platforms"
                  value={filters.platforms}
                  onValueChange={setFilter('platforms')}
                  options={[
                    { value: 'any', label: 'Any' },
                    { value: 'with', label: 'With platforms' },
                    { value: 'without', label: 'Without platforms' },
                  ]}
                />
              </div>
              <div className="w-full sm:w-44">
                <SelectField
                  name="matchFilter"
                  label="Client match"
                  value={filters.match}
                  onValueChange={setFilter('match')}
                  options={[
                    { value: 'any', label: 'Any' },
                    { value: 'matched', label: 'Matched' },
                    { value: 'unmatched', label: 'Not matched' },
                  ]}
                />
              </div>
              <div className="w-full sm:w-44">
                <SelectField
                  name="planFilter"
                  label="Plan"
                  value={filters.plan}
                  onValueChange={setFilter('plan')}
                  options={plans}
                  blankLabel="Any"
                />
              </div>
            </>
          }
          toolbar={
            <>
              <Button
                variant="secondary"
                disabled={selected.length === 0}
                onClick={() => setEditing({ ids: selected.map(Number), planOnly: false })}
              >
                {`Bulk edit${selected.length > 0 ? ` (${selected.length})` : ''}`}
              </Button>
              <Button
                variant="secondary"
                loading={clientReport.isPending}
                onClick={() => void downloadClientReport()}
              >
                Download client report
              </Button>
              <Button onClick={() => setAdding(true)}>Add client</Button>
            </>
          }
          rowActions={(row) =>
            canChangePlan(row, viewer) ? (
              <Button
                size="xs"
                variant="secondary"
                onClick={() => setEditing({ ids: [row.Id], planOnly: true })}
                aria-label={`Change plan of ${row.Name}`}
              >
                Change Plan
              </Button>
            ) : null
          }
        />
      </Card>
      <BulkEditModal
        clientIds={editing?.ids ?? null}
        planOnly={editing?.planOnly ?? false}
        canChangePlan={facts.isPlatformAdmin || facts.isTenantAdmin}
        onClose={() => setEditing(null)}
        onSaved={(count) => {
          setSelected([]);
          setNotice(`Updated ${count} client${count === 1 ? '' : 's'}.`);
        }}
      />
      {adding && <NewClientModal open onClose={() => setAdding(false)} />}
      {failureDialog}
      <ModalDialog
        open={reportFailure !== null}
        title="Client report"
        role="alertdialog"
        onClose={() => setReportFailure(null)}
      >
        <p className="text-sm text-gray-700">{`There was an error: ${reportFailure ?? ''}`}</p>
        <div className="flex justify-end">
          <Button onClick={() => setReportFailure(null)}>OK</Button>
        </div>
      </ModalDialog>
    </div>
  );
};
