import { Button, Card } from '@tremor/react';
import { useState } from 'react';
import type { RecipientResponse } from '../../../../../contracts/api/recipients';
import { RecipientState } from '../../../../../contracts/events/recipient';
import {
  useAdminRecipients,
  useDeleteRecipient,
  usePatchRecipient,
} from '../../../api/queries/admin-recipients';
import { SuccessCallout } from '../../../components/error-callout';
import { TextBadge } from '../../../components/text-badge';
import { TextLink } from '../../../components/text-link';
import { useTimedMessage } from '../../../components/use-timed-message';
import { SelectField } from '../../../forms/select-field';
import { TextField } from '../../../forms/text-field';
import type { DataColumn } from '../../../table/data-columns';
import { DataTable } from '../../../table/data-table';
import { tableTexts } from '../../../table/empty-texts';
import { PageFrame } from '../../dashboard/stat-card';
import { useDebouncedValue } from '../../sellers/use-debounced-value';
import { TypedConfirmDialog, cancellingText } from '../sellers/typed-confirm-dialog';

/** admin.md sections 5 and 8: the recipients texts. */
export const recipientTexts = {
  deleteConfirm: "Are you sure? You won't be able to revert this.",
  deactivateFailed: 'Error Deactivating Subscription',
  activateFailed: 'Error Activating Subscription',
  toggleFailed: (field: string, value: boolean) => `Error Toggling ${field} to ${String(value)}`,
  toggleDetail: 'Error toggling field: Please try again or contact support.',
} as const;

const stateOptions = RecipientState.options.map((state) => ({ value: state, label: state }));

const dayText = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' }) : '';

const subscriberName = (row: RecipientResponse) =>
  [row.Subscriber.GivenName, row.Subscriber.FamilyName].filter(Boolean).join(' ') ||
  row.Subscriber.Email ||
  `Recipient ${row.Id}`;

/**
 * /admin/recipients (admin.md sections 2 and 4): every tenant's report recipients with the weekly and
 * monthly toggles, activate and deactivate, and delete after confirmation. INACTIVE and DEACTIVATED
 * rows are danger rows.
 */
export const AdminRecipientsPage = () => {
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput, 300);
  const [state, setState] = useState<RecipientState | null>(null);
  const recipients = useAdminRecipients({ search, state, sellerId: null });
  const patch = usePatchRecipient();
  const remove = useDeleteRecipient();
  const [deleting, setDeleting] = useState<RecipientResponse | null>(null);
  const [notice, setNotice] = useTimedMessage();
  const [failure, setFailure] = useState<{ title: string; detail?: string } | null>(null);

  const toggle = (row: RecipientResponse, field: 'SendWeekly' | 'SendMonthly', value: boolean) => {
    setFailure(null);
    patch.mutate(
      { recipientId: row.Id, body: { [field]: value } },
      {
        onError: () =>
          setFailure({
            title: recipientTexts.toggleFailed(field, value),
            detail: recipientTexts.toggleDetail,
          }),
      },
    );
  };

  const changeState = (row: RecipientResponse) => {
    setFailure(null);
    const activate = row.StateAction === 'activate';
    patch.mutate(
      { recipientId: row.Id, body: { STATE: activate ? 'ACTIVE' : 'INACTIVE' } },
      {
        onSuccess: () => setNotice(`${subscriberName(row)} was ${activate ? 'activated' : 'deactivated'}.`),
        onError: (error) =>
          setFailure({
            title: activate ? recipientTexts.activateFailed : recipientTexts.deactivateFailed,
            detail: error instanceof Error ? error.message : undefined,
          }),
      },
    );
  };

  const toggleCell = (row: RecipientResponse, field: 'SendWeekly' | 'SendMonthly', label: string) => (
    <input
      type="checkbox"
      role="switch"
      aria-label={`${label} reports for ${subscriberName(row)}`}
      checked={row[field]}
      disabled={patch.isPending && patch.variables?.recipientId === row.Id}
      onChange={(event) => toggle(row, field, event.target.checked)}
      className="h-4 w-4 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
    />
  );

  const columns: DataColumn<RecipientResponse>[] = [
    { id: 'Id', header: 'Id', value: (row) => row.Id, sortable: true },
    {
      id: 'UserId',
      header: 'User',
      value: (row) => row.SubscriberId,
      hideOnMobile: true,
      cell: (row) =>
        row.Subscriber.Id === null ? (
          'Contact'
        ) : (
          <TextLink
            to={`/admin/users?search=${encodeURIComponent(row.Subscriber.Email ?? String(row.Subscriber.Id))}`}
          >
            {row.Subscriber.Id}
          </TextLink>
        ),
    },
    { id: 'SellerId', header: 'Seller', value: (row) => row.SellerId, sortable: true, hideOnMobile: true },
    { id: 'SubscriberId', header: 'Subscriber', value: (row) => row.SubscriberId, hideOnMobile: true },
    { id: 'Company', header: 'Company', value: (row) => row.Seller.CompanyName, sortable: true },
    { id: 'Email', header: 'Email', value: (row) => row.Subscriber.Email, sortable: true },
    {
      id: 'STATE',
      header: 'Status',
      value: (row) => row.STATE,
      sortable: true,
      cell: (row) => <TextBadge tone={row.Danger ? 'red' : 'green'}>{row.STATE}</TextBadge>,
    },
    { id: 'SendWeekly', header: 'Weekly', cell: (row) => toggleCell(row, 'SendWeekly', 'Weekly') },
    { id: 'SendMonthly', header: 'Monthly', cell: (row) => toggleCell(row, 'SendMonthly', 'Monthly') },
    {
      id: 'Welcome',
      header: 'Welcome',
      value: (row) => row.TrackWelcomeDate,
      cell: (row) => dayText(row.TrackWelcomeDate),
      hideOnMobile: true,
    },
    {
      id: 'WeeklyDate',
      header: 'Weekly sent',
      value: (row) => row.TrackWeeklyDate,
      cell: (row) => dayText(row.TrackWeeklyDate),
      hideOnMobile: true,
    },
    {
      id: 'MonthlyDate',
      header: 'Monthly sent',
      value: (row) => row.TrackMonthlyDate,
      cell: (row) => dayText(row.TrackMonthlyDate),
      hideOnMobile: true,
    },
  ];

  const rows = recipients.isError ? [] : recipients.data?.rows;
  return (
    <PageFrame title="Recipients">
      <SuccessCallout message={notice} />
      {failure && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          <p className="font-semibold">{failure.title}</p>
          {failure.detail && <p>{failure.detail}</p>}
        </div>
      )}
      <Card>
        {recipients.data && (
          <p className="mb-3 text-sm text-gray-700">
            Total: {recipients.data.total}, Filtered: {recipients.data.filtered}
          </p>
        )}
        <DataTable
          label="Recipients"
          data={rows}
          columns={columns}
          getRowId={(row) => String(row.Id)}
          emptyText={tableTexts.noRecipients}
          noMatchText="No recipients match the search and filters."
          filtered={search.trim() !== '' || state !== null}
          initialSort={{ id: 'Id', desc: true }}
          filters={
            <>
              <TextField
                name="recipientSearch"
                label="Search"
                value={searchInput}
                onValueChange={setSearchInput}
              />
              <div className="sm:w-40">
                <SelectField
                  name="recipientState"
                  label="Status"
                  value={state ?? ''}
                  blankLabel="All"
                  options={stateOptions}
                  onValueChange={(value) => setState(value === '' ? null : RecipientState.parse(value))}
                />
              </div>
            </>
          }
          rowActions={(row) => (
            <div className="flex gap-1">
              <Button
                size="xs"
                variant="secondary"
                aria-label={`${row.StateAction === 'activate' ? 'Activate' : 'Deactivate'} ${subscriberName(row)}`}
                disabled={patch.isPending}
                onClick={() => changeState(row)}
              >
                {row.StateAction === 'activate' ? 'Activate' : 'Deactivate'}
              </Button>
              <Button
                size="xs"
                variant="secondary"

                aria-label={`Delete ${subscriberName(row)}`}
                onClick={() => setDeleting(row)}
              >
                Delete
              </Button>
            </div>
          )}
        />
      </Card>
      {deleting && (
        <TypedConfirmDialog
          title="Delete Subscription"
          message={recipientTexts.deleteConfirm}
          confirmLabel="Delete"
          pending={remove.isPending}
          error={remove.isError ? remove.error.message : null}
          onConfirm={() =>
            remove.mutate(deleting.Id, {
              onSuccess: () => {
                setNotice(`${subscriberName(deleting)} was deleted.`);
                setDeleting(null);
              },
            })
          }
          onCancel={() => {
            setDeleting(null);
            remove.reset();
            setNotice(cancellingText('delete subscription'));
          }}
        />
      )}
    </PageFrame>
  );
};
