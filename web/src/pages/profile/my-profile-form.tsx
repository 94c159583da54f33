import { Button } from '@tremor/react';
import { useState, type FormEvent } from 'react';
import type { UpdateUserRequest, UserWithTenants } from '../../../../contracts/api/users';
import { isValidationError } from '../../api/api-error';
import { useUpdateUser } from '../../api/queries/users';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { useTimedMessage } from '../../components/use-timed-message';
import { formErrorsOf, type FormErrors } from '../../forms/field-errors';
import { SelectField } from '../../forms/select-field';
import { TextField } from '../../forms/text-field';
import { jobFunctions } from '../team/role-options';

export const profileUpdatedMessage = 'Successfully updated your profile.';
const profileFailedMessage = 'There was an error while updating the user.';

type MyProfileFormProps = {
  user: UserWithTenants;
  tenantId: number | null;
  isPlatformAdmin: boolean;
};

/**
 * My Profile: the job function in the current company; name and email are account fields only a
 * platform admin may change (portal.md section 5, User edit sends), so others see them as text.
 */
export const MyProfileForm = ({ user, tenantId, isPlatformAdmin }: MyProfileFormProps) => {
  const updateUser = useUpdateUser();
  const membership = user.Tenants.find((tenant) => tenant.Id === tenantId)?.Membership ?? null;
  const [values, setValues] = useState({
    Name: user.Name,
    Email: user.Email,
    JobTitle: membership?.JobTitle ?? '',
  });
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [success, setSuccess] = useTimedMessage();
  const [saving, setSaving] = useState(false);
  const set = (field: keyof typeof values) => (value: string) =>
    setValues((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setSuccess(null);
    const found: FormErrors = {};
    if (isPlatformAdmin && !values.Name.trim()) found.Name = 'Name is required';
    if (isPlatformAdmin && !values.Email.trim()) found.Email = 'Email is required';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body: UpdateUserRequest = {};
    if (membership) body.JobTitle = values.JobTitle.trim() || null;
    if (isPlatformAdmin) Object.assign(body, { Name: values.Name, Email: values.Email });
    setSaving(true);
    try {
      await updateUser.mutateAsync({ userId: user.Id, body });
      setSuccess(profileUpdatedMessage);
    } catch (error) {
      if (isValidationError(error)) setErrors(formErrorsOf(error.properties));
      setFailure(profileFailedMessage);
    } finally {
      setSaving(false);
    }
  };

  const jobOptions: { value: string; label: string }[] = jobFunctions.map((job) => ({
    value: job,
    label: job,
  }));
  if (values.JobTitle && !(jobFunctions as readonly string[]).includes(values.JobTitle))
    jobOptions.unshift({ value: values.JobTitle, label: values.JobTitle });

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      className="max-w-lg space-y-4"
      aria-label="My Profile"
    >
      <SuccessCallout message={success} />
      <ErrorCallout message={failure} />
      {isPlatformAdmin ? (
        <>
          <TextField
            name="Name"
            label="Name"
            value={values.Name}
            onValueChange={set('Name')}
            error={errors.Name}
          />
          <TextField
            name="Email"
            label="Email"
            type="email"
            value={values.Email}
            onValueChange={set('Email')}
            error={errors.Email}
          />
        </>
      ) : (
        <dl className="space-y-2 text-sm">
          <div>
            <dt className="font-medium text-gray-700">Name</dt>
            <dd className="text-gray-900">{user.Name}</dd>
          </div>
          <div>
            <dt className="font-medium text-gray-700">Email</dt>
            <dd className="break-all text-gray-900">{user.Email}</dd>
          </div>
        </dl>
      )}
      {membership && (
        <SelectField
          name="JobTitle"
          label="Job function"
          value={values.JobTitle}
          onValueChange={set('JobTitle')}
          options={jobOptions}
          blankLabel=""
          error={errors.JobTitle}
        />
      )}
      <Button type="submit" loading={saving}>
        Save profile
      </Button>
    </form>
  );
};
