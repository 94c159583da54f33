import { Button } from '@tremor/react';
import { useMemo, useState } from 'react';
import type { RecipientResponse } from '../../../../contracts/api/recipients';
import type { RecipientState } from '../../../../contracts/events/recipient';
import { ApiError } from '../../api/api-error';
import { errorCatalogue } from '../../api/error-catalogue';
import { useDeleteRecipient, usePatchRecipient } from '../../api/queries/recipients';
import { ModalDialog } from '../../components/modal-dialog';
import { TextBadge, type BadgeTone } from '../../components/text-badge';
import type { DataColumn } from '../../table/data-columns';
import { DataTable } from '../../table/data-table';
import { tableTexts } from '../../table/empty-texts';
import { toggleFailedText } from '../team/team-table';
import { dateTimeOf, reportTexts } from './report-texts';

export type RecipientsViewer = { userId: number; isTenantAdmin: boolean; isPlatformAdmin: boolean };

type SendFlag = 'SendWeekly' | 'SendMonthly';

const stateColors: Record<RecipientState, BadgeTone> = {
  ACTIVE: 'green',
  ADMIN: 'blue',
  INACTIVE: 'gray',
  DEACTIVATED: 'red',
};

export const recipientName = (recipient: RecipientResponse) => {
  const name = [recipient.Subscriber.GivenName, recipient.Subscriber.FamilyName].filter(Boolean).join(' ');
  return name || recipient.Subscriber.Email || `Recipient ${recipient.Id}`;
};

const lastSentOf = (recipient: RecipientResponse) =>
  [recipient.TrackWeeklyDate, recipient.TrackMonthlyDate, recipient.TrackWelcomeDate]
    .filter((date): date is string => date !== null)
    .sort()
    .at(-1) ?? null;

/**
 * portal.md section 4, recipient state: a tenant admin manages every subscription, others only their
 * own; activate, deactivate and delete are the platform admin's.
 */
export const canToggle = (viewer: RecipientsViewer, recipient: RecipientResponse) =>
  viewer.isPlatformAdmin || viewer.isTenantAdmin || recipient.SubscriberId === viewer.userId;

type RecipientsTableProps = {
  recipients: readonly RecipientResponse[] | undefined;
  viewer: RecipientsViewer;
  onError: (message: string) => void;
};

/** Report Recipients: who gets which report, when it was last sent, and the state toggles. */
export const RecipientsTable = ({ recipients, viewer, onError }: RecipientsTableProps) => {
  const patch = usePatchRecipient();
  const remove = useDeleteRecipient();
  const [busy, setBusy] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<RecipientResponse | null>(null);

  const columns = useMemo((): DataColumn<RecipientResponse>[] => {
    const toggle = async (recipient: RecipientResponse, field: SendFlag, value: boolean) => {
      setBusy(`${recipient.Id}-${field}`);
      try {
        await patch.mutateAsync({ recipientId: recipient.Id, body: { [field]: value } });
      } catch {
        onError(toggleFailedText(field, value));
      } finally {
        setBusy(null);
      }
    };
    const flagColumn = (field: SendFlag, header: string): DataColumn<RecipientResponse> => ({
      id: field,
      header,
      value: (recipient) => recipient[field],
      cell: (recipient) => (
        <input
          type="checkbox"
          role="switch"
          aria-label={`${header} to ${recipientName(recipient)}`}
          checked={recipient[field]}
          disabled={busy !== null || !canToggle(viewer, recipient)}
          onChange={(event) => void toggle(recipient, field, event.target.checked)}
          className="h-4 w-4 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600 disabled:opacity-50"
        />
      ),
    });
    return [
      {
        id: 'Name',
        header: 'Recipient',
        value: recipientName,
        cell: (recipient) => (
          <div>
            <div className="font-medium text-gray-900">{recipientName(recipient)}</div>
            <div className="break-all text-xs text-gray-500">{recipient.Subscriber.Email}</div>
          </div>
        ),
        sortable: true,
      },
      {
        id: 'Seller',
        header: 'Company',
        value: (recipient) => recipient.Seller.CompanyName ?? '',
        sortable: true,
        hideOnMobile: true,
      },
      {
        id: 'STATE',
        header: 'State',
        value: (recipient) => recipient.STATE,
        cell: (recipient) => <TextBadge tone={stateColors[recipient.STATE]}>{recipient.STATE}</TextBadge>,
        sortable: true,
      },
      flagColumn('SendWeekly', 'Send weekly'),
      flagColumn('SendMonthly', 'Send monthly'),
      {
        id: 'lastSent',
        header: 'Last sent',
        value: lastSentOf,
        cell: (recipient) => {
          const last = lastSentOf(recipient);
          return last ? dateTimeOf(last) : 'Never';
        },
        sortable: true,
        hideOnMobile: true,
      },
    ];
  }, [patch, busy, viewer, onError]);

  const changeState = async (recipient: RecipientResponse) => {
    setBusy(`${recipient.Id}-STATE`);
    try {
      await patch.mutateAsync({
        recipientId: recipient.Id,
        body: { STATE: recipient.StateAction === 'activate' ? 'ACTIVE' : 'INACTIVE' },
      });
    } catch (error) {
      onError(error instanceof ApiError ? error.message : errorCatalogue.default);
    } finally {
      setBusy(null);
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.Id);
    } catch (error) {
      onError(error instanceof ApiError ? error.message : errorCatalogue.default);
    } finally {
      setDeleting(null);
    }
  };

  return (
    <>
      <DataTable
        label="Report recipients"
        data={recipients}
        columns={columns}
        getRowId={(recipient) => String(recipient.Id)}
        searchText={(recipient) => `${recipientName(recipient)} ${recipient.Subscriber.Email ?? ''}`}
        searchLabel="Search recipients"
        emptyText={tableTexts.noRecipients}
        noMatchText={tableTexts.noRecipients}
        initialSort={{ id: 'Name' }}
        rowActions={
          viewer.isPlatformAdmin
            ? (recipient) => (
                <>
                  <Button
                    size="xs"
                    variant="secondary"
                    loading={busy === `${recipient.Id}-STATE`}
                    onClick={() => void changeState(recipient)}
                    aria-label={`${recipient.StateAction === 'activate' ? 'Activate' : 'Deactivate'} ${recipientName(recipient)}`}
                  >
                    {recipient.StateAction === 'activate' ? 'Activate' : 'Deactivate'}
                  </Button>
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    onClick={() => setDeleting(recipient)}
                    aria-label={`Delete ${recipientName(recipient)}`}
                  >
                    Delete
                  </Button>
                </>
              )
            : undefined
        }
      />
      <ModalDialog
        open={deleting !== null}
        title="Delete recipient"
        role="alertdialog"
        onClose={() => setDeleting(null)}
      >
        <p className="text-sm text-gray-700">
          {deleting && reportTexts.confirmDelete(recipientName(deleting))}
        </p>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setDeleting(null)}>
            Cancel
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => void confirmDelete()}>
            Delete
          </Button>
        </div>
      </ModalDialog>
    </>
  );
};
