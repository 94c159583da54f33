import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useForm } from 'react-hook-form';
import { CreateSellerRequest, sageConnectFailure } from '../../../../contracts/api/sellers';
import { useConnectSeller } from '../../api/queries/platforms';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { FormTextField } from '../../forms/form-fields';
import { useServerErrors } from '../../forms/use-server-errors';
import { connectFailureOf } from './connect-failure';

/** SAGE's credentials, all required (portal.md section 5): the request's fields, none left out. */
const SageForm = CreateSellerRequest.pick({ companyId: true, userId: true, password: true }).extend({
  companyId: CreateSellerRequest.shape.companyId.unwrap().min(1, 'Company ID is required'),
  userId: CreateSellerRequest.shape.userId.unwrap().min(1, 'User ID is required'),
  password: CreateSellerRequest.shape.password.unwrap().min(1, 'Password is required'),
});
const emptySage = { companyId: '', userId: '', password: '' };

/** The catalogue's text, then the server's message and any resolution hint (portal.md section 8). */
const sageFailureText = (error: unknown) => {
  const { title, detail } = connectFailureOf(error, sageConnectFailure);
  return detail ? `${title} ${detail}` : title;
};

type Props = { open: boolean; onClose: () => void; onConnected: () => void };

/** Connect to Sage: company id, user id and password, all required (portal.md section 5). */
export const SageConnectModal = ({ open, onClose, onConnected }: Props) => {
  const connectSeller = useConnectSeller();
  const form = useForm({ resolver: zodResolver(SageForm), defaultValues: emptySage });
  const serverErrors = useServerErrors(form, { failure: sageFailureText, alwaysSayFailure: true });

  const submit = form.handleSubmit(async (credentials) => {
    try {
      await connectSeller.mutateAsync({ provider: 'SAGE', ...credentials });
      form.reset(emptySage);
      onConnected();
    } catch (error) {
      serverErrors.show(error);
    }
  });

  return (
    <ModalDialog open={open} title="Connect to Sage" onClose={onClose}>
      <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <ErrorCallout message={serverErrors.message} />
        <FormTextField control={form.control} name="companyId" label="Company ID" required />
        <FormTextField control={form.control} name="userId" label="User ID" required />
        <FormTextField
          control={form.control}
          name="password"
          label="Password"
          type="password"
          autoComplete="off"
          required
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={form.formState.isSubmitting}>
            Connect
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
};
