import { Button } from '@tremor/react';
import { useState, type FormEvent } from 'react';
import type { BatchUpdateTenantsRequest } from '../../../../contracts/api/tenants';
import { tenantMessages } from '../../../../contracts/api/tenants';
import { useBatchUpdateClients } from '../../api/queries/clients';
import { useTeam } from '../../api/queries/users';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { SelectField } from '../../forms/select-field';
import { monthDayOptions, weekdayOptions } from '../settings/settings-rules';
import { clientPlanOptions } from './client-filters';

export type BulkEditValues = {
  WeeklyDay: string;
  MonthlyDay: string;
  WeeklyEmails: '' | 'on' | 'off';
  MonthlyEmails: '' | 'on' | 'off';
  PlanIdentifier: string;
  TeamMemberId: string;
};

export const noBulkChange: BulkEditValues = {
  WeeklyDay: '',
  MonthlyDay: '',
  WeeklyEmails: '',
  MonthlyEmails: '',
  PlanIdentifier: '',
  TeamMemberId: '',
};

export const chooseSettingMessage = 'Choose at least one setting to change.';

/** portal.md section 5, batch client update: blank is no change; sent only if a setting is chosen. */
export const batchRequestOf = (ids: number[], values: BulkEditValues): BatchUpdateTenantsRequest | null => {
  const body: BatchUpdateTenantsRequest = { Id: ids };
  if (values.WeeklyDay !== '') body.WeeklyDay = Number(values.WeeklyDay);
  if (values.MonthlyDay !== '') body.MonthlyDay = Number(values.MonthlyDay);
  if (values.WeeklyEmails !== '') body.WeeklyEmailsDisabled = values.WeeklyEmails === 'off';
  if (values.MonthlyEmails !== '') body.MonthlyEmailsDisabled = values.MonthlyEmails === 'off';
  if (values.PlanIdentifier !== '') body.PlanIdentifier = values.PlanIdentifier;
  if (values.TeamMemberId !== '') body.TeamMemberId = Number(values.TeamMemberId);
  return Object.keys(body).length > 1 ? body : null;
};

const emailOptions = [
  { value: 'on', label: 'Send' },
  { value: 'off', label: 'Do not send' },
];

type BulkEditModalProps = {
  /** The clients to edit; null when closed. */
  clientIds: number[] | null;
  /** Change Plan edits one client's plan only. */
  planOnly?: boolean;
  canChangePlan: boolean;
  onClose: () => void;
  onSaved: (count: number) => void;
};

/** Bulk edit of the selected clients (PUT /api/tenants/batch), also the Change Plan of one client. */
export const BulkEditModal = ({
  clientIds,
  planOnly = false,
  canChangePlan,
  onClose,
  onSaved,
}: BulkEditModalProps) => {
  const batchUpdate = useBatchUpdateClients();
  const team = useTeam();
  const [values, setValues] = useState<BulkEditValues>(noBulkChange);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = (field: keyof BulkEditValues) => (value: string) =>
    setValues((current) => ({ ...current, [field]: value }));
  const count = clientIds?.length ?? 0;

  const close = () => {
    setValues(noBulkChange);
    setFailure(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = batchRequestOf(clientIds ?? [], values);
    if (!body) {
      setFailure(chooseSettingMessage);
      return;
    }
    setFailure(null);
    setSaving(true);
    try {
      await batchUpdate.mutateAsync(body);
      close();
      onSaved(count);
    } catch {
      setFailure(tenantMessages.clientsUpdateFailed);
    } finally {
      setSaving(false);
    }
  };

  const members = (team.data?.members ?? [])
    .filter((member) => member.Membership.Status === 'ACTIVE')
    .map((member) => ({ value: String(member.Id), label: member.Name }));

  return (
    <ModalDialog
      open={clientIds !== null}
      title={planOnly ? 'Change plan' : `Edit ${count} selected client${count === 1 ? '' : 's'}`}
      onClose={close}
    >
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4" aria-label="Bulk edit">
        <ErrorCallout message={failure} />
        {!planOnly && (
          <>
            <SelectField
              name="WeeklyDay"
              label="Weekly report day"
              value={values.WeeklyDay}
              onValueChange={set('WeeklyDay')}
              options={weekdayOptions}
              blankLabel="No change"
            />
            <SelectField
              name="MonthlyDay"
              label="Monthly report day"
              value={values.MonthlyDay}
              onValueChange={set('MonthlyDay')}
              options={monthDayOptions}
              blankLabel="No change"
            />
            <SelectField
              name="WeeklyEmails"
              label="Weekly report emails"
              value={values.WeeklyEmails}
              onValueChange={set('WeeklyEmails')}
              options={emailOptions}
              blankLabel="No change"
            />
            <SelectField
              name="MonthlyEmails"
              label="Monthly report emails"
              value={values.MonthlyEmails}
              onValueChange={set('MonthlyEmails')}
              options={emailOptions}
              blankLabel="No change"
            />
            <SelectField
              name="TeamMemberId"
              label="Add an advisor from your team"
              value={values.TeamMemberId}
              onValueChange={set('TeamMemberId')}
              options={members}
              blankLabel="No change"
            />
          </>
        )}
        {(planOnly || canChangePlan) && (
          <SelectField
            name="PlanIdentifier"
            label="Plan"
            value={values.PlanIdentifier}
            onValueChange={set('PlanIdentifier')}
            options={clientPlanOptions}
            blankLabel="No change"
          />
        )}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            Save changes
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
};
