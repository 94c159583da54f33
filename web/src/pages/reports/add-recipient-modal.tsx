import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { recipientAddedMessage } from '../../../../contracts/api/recipients';
import type { SellerResponse } from '../../../../contracts/api/sellers';
import { errorCatalogue } from '../../api/error-catalogue';
import { useAddRecipient } from '../../api/queries/recipients';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { FormCheckboxField, FormSelectField, FormTextField } from '../../forms/form-fields';
import { serverTextOr, useServerErrors } from '../../forms/use-server-errors';

/** portal.md section 5 (Recipient): a company, a valid email; name and job title optional. */
const RecipientForm = z.object({
  sellerId: z.string().min(1, 'Choose a company').transform(Number),
  email: z.string().trim().min(1, 'Email is required').max(254).pipe(z.email('Email is invalid')),
  name: z.string().trim().max(200),
  jobTitle: z.string().trim().max(100),
  SendWeekly: z.boolean(),
  SendMonthly: z.boolean(),
});

type AddRecipientModalProps = {
  sellers: readonly SellerResponse[];
  /** The company chosen before opening (the platforms page's Add recipient link). */
  sellerId: number | null;
  onClose: () => void;
  onAdded: (message: string) => void;
};

/** Add a report recipient: anyone's email, for one company's weekly and monthly reports. */
export const AddRecipientModal = ({ sellers, sellerId, onClose, onAdded }: AddRecipientModalProps) => {
  const add = useAddRecipient();
  const form = useForm({
    resolver: zodResolver(RecipientForm),
    defaultValues: {
      sellerId: String(sellerId ?? sellers[0]?.Id ?? ''),
      email: '',
      name: '',
      jobTitle: '',
      SendWeekly: true,
      SendMonthly: true,
    },
  });
  const serverErrors = useServerErrors(form, {
    failure: serverTextOr(errorCatalogue.default),
    shownFields: ['sellerId', 'email', 'name', 'jobTitle'],
  });

  const submit = form.handleSubmit(async (values) => {
    try {
      await add.mutateAsync({
        sellerId: values.sellerId,
        email: values.email,
        ...(values.name ? { name: values.name } : {}),
        ...(values.jobTitle ? { jobTitle: values.jobTitle } : {}),
        SendWeekly: values.SendWeekly,
        SendMonthly: values.SendMonthly,
      });
      onAdded(recipientAddedMessage);
      onClose();
    } catch (error) {
      serverErrors.show(error);
    }
  });

  return (
    <ModalDialog open title="Add recipient" onClose={onClose}>
      <form
        noValidate
        onSubmit={(event) => void submit(event)}
        className="space-y-4"
        aria-label="Add recipient"
      >
        <ErrorCallout message={serverErrors.message} />
        <FormSelectField
          control={form.control}
          name="sellerId"
          label="Company"
          options={sellers.map((seller) => ({
            value: String(seller.Id),
            label: seller.CompanyName ?? `Company ${seller.Id}`,
          }))}
        />
        <FormTextField control={form.control} name="email" label="Email" type="email" autoComplete="off" />
        <FormTextField control={form.control} name="name" label="Name" />
        <FormTextField control={form.control} name="jobTitle" label="Job title" />
        <FormCheckboxField control={form.control} name="SendWeekly" label="Send the weekly report" />
        <FormCheckboxField control={form.control} name="SendMonthly" label="Send the monthly report" />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={form.formState.isSubmitting}>
            Add recipient
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
};
