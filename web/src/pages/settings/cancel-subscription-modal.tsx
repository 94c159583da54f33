import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import type { BillingSubscription } from '../../../../contracts/api/billing';
import { CancellationReason } from '../../../../contracts/events/billing';
import { usePlans, useCancelSubscription } from '../../api/queries/billing';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { FormCheckboxField, FormSelectField, FormTextField } from '../../forms/form-fields';
import { serverTextOr, useServerErrors } from '../../forms/use-server-errors';

export const reasonLabels: Record<CancellationReason, string> = {
  NEEDS: 'It does not meet our needs',
  LOWER_COSTS: 'We need to lower costs',
  JUST_TESTING: 'We were just testing',
  BIZ_CHANGE: 'Our business changed',
  OTHER: 'Other',
};

const CancelForm = z
  .object({
    Intent: z.enum(['cancel', 'downgrade']),
    Reason: z.union([CancellationReason, z.literal('')]),
    Details: z.string().trim().max(2000),
    DowngradeToPlanId: z.string(),
    Confirmed: z.boolean(),
  })
  .superRefine((form, ctx) => {
    if (form.Reason === '')
      ctx.addIssue({ code: 'custom', path: ['Reason'], message: 'Choose one of the reasons.' });
    if (form.Reason === 'OTHER' && form.Details === '')
      ctx.addIssue({ code: 'custom', path: ['Details'], message: 'Tell us a little more.' });
    if (form.Intent === 'downgrade' && form.DowngradeToPlanId === '')
      ctx.addIssue({ code: 'custom', path: ['DowngradeToPlanId'], message: 'Choose the plan to move to.' });
    if (!form.Confirmed)
      ctx.addIssue({ code: 'custom', path: ['Confirmed'], message: 'Tick the box to confirm.' });
  });

export const effectiveDateText = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { dateStyle: 'long' });

type CancelSubscriptionModalProps = {
  subscription: BillingSubscription;
  classification: string;
  onClose: () => void;
  onDone: (message: string) => void;
};

/** The cancel or downgrade modal (portal.md section 2.3): a reason, and effect at the period's end. */
export const CancelSubscriptionModal = ({
  subscription,
  classification,
  onClose,
  onDone,
}: CancelSubscriptionModalProps) => {
  const cancel = useCancelSubscription();
  const plans = usePlans(classification);
  const form = useForm({
    resolver: zodResolver(CancelForm),
    defaultValues: {
      Intent: 'cancel',
      Reason: '',
      Details: '',
      DowngradeToPlanId: '',
      Confirmed: false,
    } as z.input<typeof CancelForm>,
  });
  const intent = useWatch({ control: form.control, name: 'Intent' });
  const reason = useWatch({ control: form.control, name: 'Reason' });
  const serverErrors = useServerErrors(form, {
    failure: serverTextOr('There was an error while updating the subscription.'),
    shownFields: ['Intent', 'Reason', 'Details', 'DowngradeToPlanId', 'Confirmed'],
    aliases: {
      reason: 'Reason',
      details: 'Details',
      confirmed: 'Confirmed',
      downgradeToPlanId: 'DowngradeToPlanId',
    },
  });
  const lowerPlans = (plans.data?.plans ?? []).filter(
    (plan) => plan.Id !== subscription.Plan.Id && plan.Active,
  );

  const submit = form.handleSubmit(async (values) => {
    try {
      const updated = await cancel.mutateAsync({
        Intent: values.Intent,
        Reason: values.Reason,
        Details: values.Reason === 'OTHER' ? values.Details : null,
        Confirmed: values.Confirmed,
        DowngradeToPlanId: values.Intent === 'downgrade' ? Number(values.DowngradeToPlanId) : null,
      });
      const at = updated.ScheduledCancellation?.EffectiveAt;
      onDone(
        values.Intent === 'downgrade'
          ? `Your plan changes on ${at ? effectiveDateText(at) : 'the end of the period'}.`
          : `Your subscription ends on ${at ? effectiveDateText(at) : 'the end of the period'}.`,
      );
      onClose();
    } catch (error) {
      serverErrors.show(error);
    }
  });

  return (
    <ModalDialog open title="Cancel or downgrade" onClose={onClose}>
      <form
        noValidate
        onSubmit={(event) => void submit(event)}
        className="space-y-4"
        aria-label="Cancel or downgrade"
      >
        <ErrorCallout message={serverErrors.message} />
        <p className="text-sm text-gray-700">
          The change takes effect at the end of the current billing period; until then nothing changes.
        </p>
        <FormSelectField
          control={form.control}
          name="Intent"
          label="What would you like to do?"
          options={[
            { value: 'cancel', label: 'Cancel my subscription' },
            { value: 'downgrade', label: 'Move to a smaller plan' },
          ]}
        />
        {intent === 'downgrade' && (
          <FormSelectField
            control={form.control}
            name="DowngradeToPlanId"
            label="New plan"
            blankLabel=""
            options={lowerPlans.map((plan) => ({ value: String(plan.Id), label: plan.Name }))}
          />
        )}
        <FormSelectField
          control={form.control}
          name="Reason"
          label="Why?"
          blankLabel=""
          options={CancellationReason.options.map((value) => ({ value, label: reasonLabels[value] }))}
        />
        {reason === 'OTHER' && <FormTextField control={form.control} name="Details" label="Details" />}
        <FormCheckboxField
          control={form.control}
          name="Confirmed"
          label="I understand, and I want to go ahead"
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Keep my plan
          </Button>
          <Button type="submit" color="red" loading={form.formState.isSubmitting}>
            Confirm
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
};
