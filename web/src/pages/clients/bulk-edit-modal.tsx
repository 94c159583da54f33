import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { BatchUpdateTenantsRequest, tenantMessages } from '../../../../contracts/api/tenants';
import { useBatchUpdateClients } from '../../api/queries/clients';
import { useTeam } from '../../api/queries/users';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { FormSelectField } from '../../forms/form-fields';
import { useServerErrors } from '../../forms/use-server-errors';
import { monthDayOptions, weekdayOptions } from '../settings/settings-rules';
import { clientPlanOptions } from './client-filters';

const batch = BatchUpdateTenantsRequest.shape;

/** A select's number; blank (no change) becomes absent. */
const numberOrNoChange = (schema: typeof batch.WeeklyDay) =>
  z
    .string()
    .transform((value) => (value === '' ? undefined : Number(value)))
    .pipe(schema);
/** Send or Do not send as the request's Disabled flag; blank (no change) becomes absent. */
const emailsOrNoChange = z
  .enum(['', 'on', 'off'])
  .transform((value) => (value === '' ? undefined : value === 'off'))
  .pipe(batch.WeeklyEmailsDisabled);

export const chooseSettingMessage = 'Choose at least one setting to change.';

type BatchSettings = Omit<BatchUpdateTenantsRequest, 'Id'>;

/**
 * portal.md section 5, batch client update: the request's settings, blank meaning no change; sent only
 * if a setting is chosen (a form-level error otherwise, under `root`).
 */
export const BulkEditForm = z
  .object({
    WeeklyDay: numberOrNoChange(batch.WeeklyDay),
    MonthlyDay: numberOrNoChange(batch.MonthlyDay),
    WeeklyEmails: emailsOrNoChange,
    MonthlyEmails: emailsOrNoChange,
    PlanIdentifier: batch.PlanIdentifier.unwrap().transform((plan) => plan || undefined),
    TeamMemberId: numberOrNoChange(batch.TeamMemberId),
  })
  .transform(({ WeeklyEmails, MonthlyEmails, ...settings }): BatchSettings => {
    const chosen = { ...settings, WeeklyEmailsDisabled: WeeklyEmails, MonthlyEmailsDisabled: MonthlyEmails };
    return Object.fromEntries(Object.entries(chosen).filter(([, value]) => value !== undefined));
  })
  .refine((settings) => Object.keys(settings).length > 0, { path: ['root'], message: chooseSettingMessage });
export type BulkEditValues = z.input<typeof BulkEditForm>;

export const noBulkChange: BulkEditValues = {
  WeeklyDay: '',
  MonthlyDay: '',
  WeeklyEmails: '',
  MonthlyEmails: '',
  PlanIdentifier: '',
  TeamMemberId: '',
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
  const form = useForm({ resolver: zodResolver(BulkEditForm), defaultValues: noBulkChange });
  const showsPlan = planOnly || canChangePlan;
  const serverErrors = useServerErrors(form, {
    failure: tenantMessages.clientsUpdateFailed,
    alwaysSayFailure: true,
    shownFields: [
      ...(planOnly
        ? []
        : (['WeeklyDay', 'MonthlyDay', 'WeeklyEmails', 'MonthlyEmails', 'TeamMemberId'] as const)),
      ...(showsPlan ? (['PlanIdentifier'] as const) : []),
    ],
    aliases: { WeeklyEmailsDisabled: 'WeeklyEmails', MonthlyEmailsDisabled: 'MonthlyEmails' },
  });
  const count = clientIds?.length ?? 0;

  const close = () => {
    form.reset(noBulkChange);
    onClose();
  };

  const submit = form.handleSubmit(async (settings) => {
    try {
      await batchUpdate.mutateAsync({ Id: clientIds ?? [], ...settings });
      close();
      onSaved(count);
    } catch (error) {
      serverErrors.show(error);
    }
  });

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
        {/* Choose at least one setting (the form's own check), else the server's failure. */}
        <ErrorCallout message={form.formState.errors.root?.message ?? serverErrors.message} />
        {!planOnly && (
          <>
            <FormSelectField
              control={form.control}
              name="WeeklyDay"
              label="Weekly report day"
              options={weekdayOptions}
              blankLabel="No change"
            />
            <FormSelectField
              control={form.control}
              name="MonthlyDay"
              label="Monthly report day"
              options={monthDayOptions}
              blankLabel="No change"
            />
            <FormSelectField
              control={form.control}
              name="WeeklyEmails"
              label="Weekly report emails"
              options={emailOptions}
              blankLabel="No change"
            />
            <FormSelectField
              control={form.control}
              name="MonthlyEmails"
              label="Monthly report emails"
              options={emailOptions}
              blankLabel="No change"
            />
            <FormSelectField
              control={form.control}
              name="TeamMemberId"
              label="Add an advisor from your team"
              options={members}
              blankLabel="No change"
            />
          </>
        )}
        {showsPlan && (
          <FormSelectField
            control={form.control}
            name="PlanIdentifier"
            label="Plan"
            options={clientPlanOptions}
            blankLabel="No change"
          />
        )}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" loading={form.formState.isSubmitting}>
            Save changes
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
};
