import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { UpdateUserRequest, type UserWithTenants } from '../../../../contracts/api/users';
import { useUpdateUser } from '../../api/queries/users';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { useTimedMessage } from '../../components/use-timed-message';
import { FormSelectField, FormTextField } from '../../forms/form-fields';
import { useServerErrors } from '../../forms/use-server-errors';
import { jobFunctions } from '../team/role-options';

export const profileUpdatedMessage = 'Successfully updated your profile.';
const profileFailedMessage = 'There was an error while updating the user.';

/**
 * My Profile's rules: a platform admin's Name (the request's rule) and Email (given, then the request's
 * email rule); the job title only with a membership here. The output is the request to send.
 */
export const myProfileForm = (context: { isPlatformAdmin: boolean; hasMembership: boolean }) =>
  z
    .object({
      Name: context.isPlatformAdmin ? UpdateUserRequest.shape.Name.unwrap() : z.string(),
      Email: context.isPlatformAdmin
        ? z
            .string()
            .trim()
            .min(1, { error: 'Email is required', abort: true })
            .pipe(UpdateUserRequest.shape.Email.unwrap())
        : z.string(),
      JobTitle: z.string(),
    })
    .transform(({ Name, Email, JobTitle }): UpdateUserRequest => ({
      ...(context.hasMembership ? { JobTitle: JobTitle.trim() || null } : {}),
      ...(context.isPlatformAdmin ? { Name, Email } : {}),
    }))
    .pipe(UpdateUserRequest);

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
  const form = useForm({
    resolver: zodResolver(myProfileForm({ isPlatformAdmin, hasMembership: membership !== null })),
    defaultValues: { Name: user.Name, Email: user.Email, JobTitle: membership?.JobTitle ?? '' },
  });
  const serverErrors = useServerErrors(form, {
    failure: profileFailedMessage,
    // The update error is said above the form as well, as the user edit form does.
    alwaysSayFailure: true,
    shownFields: [
      ...(isPlatformAdmin ? (['Name', 'Email'] as const) : []),
      ...(membership ? (['JobTitle'] as const) : []),
    ],
  });
  const [success, setSuccess] = useTimedMessage();
  const jobTitle = useWatch({ control: form.control, name: 'JobTitle' });

  const submit = form.handleSubmit(
    async (body) => {
      setSuccess(null);
      try {
        await updateUser.mutateAsync({ userId: user.Id, body });
        setSuccess(profileUpdatedMessage);
      } catch (error) {
        serverErrors.show(error);
      }
    },
    // An earlier success no longer describes the form once it shows errors.
    () => setSuccess(null),
  );

  const jobOptions: { value: string; label: string }[] = jobFunctions.map((job) => ({
    value: job,
    label: job,
  }));
  if (jobTitle && !(jobFunctions as readonly string[]).includes(jobTitle))
    jobOptions.unshift({ value: jobTitle, label: jobTitle });

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      className="max-w-lg space-y-4"
      aria-label="My Profile"
    >
      <SuccessCallout message={success} />
      <ErrorCallout message={serverErrors.message} />
      {isPlatformAdmin ? (
        <>
          <FormTextField control={form.control} name="Name" label="Name" />
          <FormTextField control={form.control} name="Email" label="Email" type="email" />
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
        <FormSelectField
          control={form.control}
          name="JobTitle"
          label="Job function"
          options={jobOptions}
          blankLabel=""
        />
      )}
      <Button type="submit" loading={form.formState.isSubmitting}>
        Save profile
      </Button>
    </form>
  );
};
