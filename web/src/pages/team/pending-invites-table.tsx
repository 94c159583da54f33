import { Button } from '@tremor/react';
import { useMemo, useState } from 'react';
import type { PendingInvite } from '../../../../contracts/api/users';
import { ApiError } from '../../api/api-error';
import { errorCatalogue } from '../../api/error-catalogue';
import { useCancelInvite } from '../../api/queries/users';
import type { DataColumn } from '../../table/data-columns';
import { DataTable } from '../../table/data-table';

const inviteRoleLabels: Record<PendingInvite['Role'], string> = {
  ADMIN: 'Administrator',
  USER: 'Standard User',
  ADVISOR: 'Advisor',
};

const dateOf = (iso: string) => new Date(iso).toLocaleDateString();

type PendingInvitesTableProps = {
  invites: readonly PendingInvite[] | undefined;
  onError: (message: string) => void;
};

/** Invitations not yet accepted or cancelled (the tenant admin's), each with Cancel. */
export const PendingInvitesTable = ({ invites, onError }: PendingInvitesTableProps) => {
  const cancelInvite = useCancelInvite();
  const [cancelling, setCancelling] = useState<string | null>(null);

  const columns = useMemo(
    (): DataColumn<PendingInvite>[] => [
      { id: 'Name', header: 'Name', value: (invite) => invite.Name, sortable: true },
      { id: 'Email', header: 'Email', value: (invite) => invite.Email, sortable: true },
      { id: 'Role', header: 'Role', value: (invite) => inviteRoleLabels[invite.Role], hideOnMobile: true },
      {
        id: 'status',
        header: 'Status',
        value: (invite) => (invite.status === 'sent' ? 'Sent' : 'Pending'),
        hideOnMobile: true,
      },
      {
        id: 'createdAt',
        header: 'Invited',
        value: (invite) => invite.createdAt,
        cell: (invite) => dateOf(invite.createdAt),
        sortable: true,
        hideOnMobile: true,
      },
    ],
    [],
  );

  const cancel = async (invite: PendingInvite) => {
    setCancelling(invite.Uuid);
    try {
      await cancelInvite.mutateAsync(invite.Uuid);
    } catch (error) {
      onError(error instanceof ApiError ? error.message : errorCatalogue.default);
    } finally {
      setCancelling(null);
    }
  };

  return (
    <DataTable
      label="Pending invites"
      data={invites}
      columns={columns}
      getRowId={(invite) => invite.Uuid}
      rowActions={(invite) => (
        <Button
          size="xs"
          variant="secondary"
          loading={cancelling === invite.Uuid}
          onClick={() => void cancel(invite)}
          aria-label={`Cancel the invitation of ${invite.Email}`}
        >
          Cancel
        </Button>
      )}
    />
  );
};
