import { Button } from '@tremor/react';
import { useState, type FormEvent } from 'react';
import { sageConnectFailure } from '../../../../contracts/api/sellers';
import { isValidationError } from '../../api/api-error';
import { useConnectSeller } from '../../api/queries/platforms';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { formErrorsOf, type FormErrors } from '../../forms/field-errors';
import { TextField } from '../../forms/text-field';
import { connectFailureOf } from './connect-failure';

type Props = { open: boolean; onClose: () => void; onConnected: () => void };

/** Connect to Sage: company id, user id and password, all required (portal.md section 5). */
export const SageConnectModal = ({ open, onClose, onConnected }: Props) => {
  const connectSeller = useConnectSeller();
  const [values, setValues] = useState({ companyId: '', userId: '', password: '' });
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const set = (field: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing: FormErrors = {};
    if (!values.companyId.trim()) missing.companyId = 'Company ID is required';
    if (!values.userId.trim()) missing.userId = 'User ID is required';
    if (!values.password) missing.password = 'Password is required';
    setErrors(missing);
    setFailure(null);
    if (Object.keys(missing).length > 0) return;
    setLoading(true);
    try {
      await connectSeller.mutateAsync({ provider: 'SAGE', ...values });
      setValues({ companyId: '', userId: '', password: '' });
      onConnected();
    } catch (error) {
      if (isValidationError(error)) setErrors(formErrorsOf(error.properties));
      const { title, detail } = connectFailureOf(error, sageConnectFailure);
      setFailure(detail ? `${title} ${detail}` : title);
    } finally {
      setLoading(false);
    }
  };

  return (
    <ModalDialog open={open} title="Connect to Sage" onClose={onClose}>
      <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <ErrorCallout message={failure} />
        <TextField
          name="companyId"
          label="Company ID"
          value={values.companyId}
          onValueChange={set('companyId')}
          error={errors.companyId}
          required
        />
        <TextField
          name="userId"
          label="User ID"
          value={values.userId}
          onValueChange={set('userId')}
          error={errors.userId}
          required
        />
        <TextField
          name="password"
          label="Password"
          type="password"
          autoComplete="off"
          value={values.password}
          onValueChange={set('password')}
          error={errors.password}
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
