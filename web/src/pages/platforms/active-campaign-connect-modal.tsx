import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useForm } from 'react-hook-form';
import {
  activeCampaignConnectFailure,
  CreateIntegrationRequest,
} from '../../../../contracts/api/integrations';
import { useConnectActiveCampaign } from '../../api/queries/platforms';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { FormTextField } from '../../forms/form-fields';
import { useServerErrors } from '../../forms/use-server-errors';
import { connectFailureOf } from './connect-failure';

/** The request's Credentials, both required here (portal.md section 5). */
const Credentials = CreateIntegrationRequest.shape.Credentials.unwrap();
const credentials = Credentials.shape;
const ActiveCampaignForm = Credentials.extend({
  URL: credentials.URL.unwrap().min(1, 'URL is required'),
  ApiKey: credentials.ApiKey.unwrap().min(1, 'API key is required'),
});
const emptyCredentials = { URL: '', ApiKey: '' };

/** The catalogue's text, then the server's message and any resolution (portal.md section 8). */
const activeCampaignFailureText = (error: unknown) => {
  const { title, detail } = connectFailureOf(error, activeCampaignConnectFailure);
  return detail ? `${title} ${detail}` : title;
};

type Props = { open: boolean; onClose: () => void; onConnected: () => void };

/** Connect to ActiveCampaign: account URL and API key (masked), both required (portal.md section 5). */
export const ActiveCampaignConnectModal = ({ open, onClose, onConnected }: Props) => {
  const connectActiveCampaign = useConnectActiveCampaign();
  const form = useForm({ resolver: zodResolver(ActiveCampaignForm), defaultValues: emptyCredentials });
  const serverErrors = useServerErrors(form, {
    failure: activeCampaignFailureText,
    aliases: { 'Credentials.URL': 'URL', 'Credentials.ApiKey': 'ApiKey' },
    alwaysSayFailure: true,
  });

  const submit = form.handleSubmit(async (values) => {
    try {
      await connectActiveCampaign.mutateAsync(values);
      form.reset(emptyCredentials);
      onConnected();
    } catch (error) {
      serverErrors.show(error);
    }
  });

  return (
    <ModalDialog open={open} title="Connect to ActiveCampaign" onClose={onClose}>
      <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <ErrorCallout message={serverErrors.message} />
        <FormTextField control={form.control} name="URL" label="Account URL" type="url" required />
        <FormTextField
          control={form.control}
          name="ApiKey"
          label="API key"
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
