import { Button } from '@tremor/react';
import { useState, type FormEvent } from 'react';
import { activeCampaignConnectFailure } from '../../../../contracts/api/integrations';
import { isValidationError } from '../../api/api-error';
import { useConnectActiveCampaign } from '../../api/queries/platforms';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { formErrorsOf, type FormErrors } from '../../forms/field-errors';
import { TextField } from '../../forms/text-field';
import { connectFailureOf } from './connect-failure';

type Props = { open: boolean; onClose: () => void; onConnected: () => void };

/** Connect to ActiveCampaign: account URL and API key (masked), both required (portal.md section 5). */
export const ActiveCampaignConnectModal = ({ open, onClose, onConnected }: Props) => {
  const connectActiveCampaign = useConnectActiveCampaign();
  const [values, setValues] = useState({ URL: '', ApiKey: '' });
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const set = (field: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing: FormErrors = {};
    if (!values.URL.trim()) missing.URL = 'URL is required';
    if (!values.ApiKey.trim()) missing.ApiKey = 'API key is required';
    setErrors(missing);
    setFailure(null);
    if (Object.keys(missing).length > 0) return;
    setLoading(true);
    try {
      await connectActiveCampaign.mutateAsync(values);
      setValues({ URL: '', ApiKey: '' });
      onConnected();
    } catch (error) {
      if (isValidationError(error)) {
        const fields = formErrorsOf(error.properties);
        setErrors({
          URL: fields['Credentials.URL'] ?? fields.URL ?? '',
          ApiKey: fields['Credentials.ApiKey'] ?? fields.ApiKey ?? '',
        });
      }
      const { title, detail } = connectFailureOf(error, activeCampaignConnectFailure);
      setFailure(detail ? `${title} ${detail}` : title);
    } finally {
      setLoading(false);
    }
  };

  return (
    <ModalDialog open={open} title="Connect to ActiveCampaign" onClose={onClose}>
      <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <ErrorCallout message={failure} />
        <TextField
          name="URL"
          label="Account URL"
          type="url"
          value={values.URL}
          onValueChange={set('URL')}
          error={errors.URL || undefined}
          required
        />
        <TextField
          name="ApiKey"
          label="API key"
          type="password"
          autoComplete="off"
          value={values.ApiKey}
          onValueChange={set('ApiKey')}
          error={errors.ApiKey || undefined}
          required
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={loading}>
            Connect
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
};
