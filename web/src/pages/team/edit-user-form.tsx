import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { UpdateUserRequest, userMessages } from '../../../../contracts/api/users';
import { PrimaryClassification, TenantRole } from '../../../../contracts/events/user';
import { useUpdateUser } from '../../api/queries/users';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { FormCheckboxField, FormSelectField, FormTextField } from '../../forms/form-fields';
import { useServerErrors } from '../../forms/use-server-errors';
import { jobFunctions, roleLabels } from './role-options';

/** What the edit form shows of a user: the account and their membership in the current company. */
export type EditableUser = {
  Id: number;
  Name: string;
  Email: string;
  PrimaryClassification: PrimaryClassification;
  ActiveCampaignId: string | null;
  AssignToAllClients: boolean;
  JobTitle: string | null;
  /** Null when the user has no membership here (the field is then not shown). */
  Role: TenantRole | null;
};

export type Editor = { isPlatformAdmin: boolean; isTenantAdmin: boolean; isFirm: boolean };

export const updatedUserMessage = 'Successfully updated the user.';
const closeAfterMs = 1_500;

/**
 * portal.md section 5, advisor assignment: the box appears only in an advisory firm, for a user of
 * ADVISOR primary classification with the ADMIN role.
 */
export const showsAssignToAllClients = (user: EditableUser, editor: Editor) =>
  editor.isFirm && user.PrimaryClassification === 'ADVISOR' && user.Role === 'ADMIN';

type Values = {
  Name: string;
  Email: string;
  PrimaryClassification: PrimaryClassification;
  ActiveCampaignId: string;
  JobTitle: string;
  Role: TenantRole | '';
  AssignToAllClients: boolean;
};

const emailRequired = 'Email is required';

/**
 * portal.md section 5, user edit sends: Name, Email, PrimaryClassification and ActiveCampaignId only
 * from a platform admin; JobTitle always; Role when the field is shown (and the editor may change it);
 * AssignToAllClients only when its box is shown.
 */
export const updateRequestOf = (values: Values, context: { user: EditableUser; editor: Editor }) => {
  const { user, editor } = context;
  const body: UpdateUserRequest = { JobTitle: values.JobTitle.trim() || null };
  if (editor.isPlatformAdmin) {
    body.Name = values.Name;
    body.Email = values.Email;
    body.PrimaryClassification = values.PrimaryClassification;
    body.ActiveCampaignId = values.ActiveCampaignId.trim() || null;
  }
  if (user.Role !== null && values.Role !== '' && (editor.isPlatformAdmin || editor.isTenantAdmin))
    body.Role = values.Role;
  if (showsAssignToAllClients(user, editor)) body.AssignToAllClients = values.AssignToAllClients;
  return body;
};

/**
 * The edit form's rules: a platform admin's Name and Email required (the request's Name rule, an
 * email that is given and valid); the request built from the shown fields must pass UpdateUserRequest,
 * whose issues name the same fields as the form.
 */
export const editUserForm = (context: { user: EditableUser; editor: Editor }) => {
  const account = context.editor.isPlatformAdmin;
  return z
    .object({
      Name: account ? UpdateUserRequest.shape.Name.unwrap() : z.string(),
      Email: account
        ? z
            .string()
            .trim()
            .min(1, { error: emailRequired, abort: true })
            .pipe(UpdateUserRequest.shape.Email.unwrap())
        : z.string(),
      PrimaryClassification,
      ActiveCampaignId: z.string(),
      JobTitle: z.string(),
      Role: TenantRole.or(z.literal('')),
      AssignToAllClients: z.boolean(),
    })
    .transform((values: Values) => updateRequestOf(values, context))
    .pipe(UpdateUserRequest);
};

const jobOptionsFor = (current: string) => {
  const options = jobFunctions.map((job) => ({ value: job, label: job }));
  // A job title typed elsewhere (an older free-text value) stays selectable.
  return current && !(jobFunctions as readonly string[]).includes(current)
    ? [{ value: current, label: current }, ...options]
    : options;
};

type EditUserFormProps = {
  user: EditableUser;
  editor: Editor;
  /** After the success text has been shown (the modal closes, the page goes back). */
  onDone: () => void;
  onCancel: () => void;
};

/** The user edit form, in the team page's modal or on /users/{userId}. */
export const EditUserForm = ({ user, editor, onDone, onCancel }: EditUserFormProps) => {
  const updateUser = useUpdateUser();
  const form = useForm({
    resolver: zodResolver(editUserForm({ user, editor })),
    defaultValues: {
      Name: user.Name,
      Email: user.Email,
      PrimaryClassification: user.PrimaryClassification,
      ActiveCampaignId: user.ActiveCampaignId ?? '',
      JobTitle: user.JobTitle ?? '',
      Role: user.Role ?? '',
      AssignToAllClients: user.AssignToAllClients,
    } satisfies Values,
  });
  const serverErrors = useServerErrors(form, {
    failure: userMessages.updateFailed,
    // The catalogue's update error is said above the form as well (portal.md section 8).
    alwaysSayFailure: true,
    // Only the fields this editor sees; an error on another is said above the form.
    shownFields: [
      ...(editor.isPlatformAdmin
        ? (['Name', 'Email', 'PrimaryClassification', 'ActiveCampaignId'] as const)
        : []),
      ...(user.Role !== null ? (['Role'] as const) : []),
      'JobTitle',
      ...(showsAssignToAllClients(user, editor) ? (['AssignToAllClients'] as const) : []),
    ],
  });
  const [success, setSuccess] = useState<string | null>(null);
  const canChangeRole = editor.isPlatformAdmin || editor.isTenantAdmin;

  const submit = form.handleSubmit(async (body) => {
    try {
      await updateUser.mutateAsync({ userId: user.Id, body });
      setSuccess(updatedUserMessage);
      window.setTimeout(onDone, closeAfterMs);
    } catch (error) {
      serverErrors.show(error);
    }
  });

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4" aria-label="Edit user">
      <SuccessCallout message={success} />
      <ErrorCallout message={serverErrors.message} />
      {editor.isPlatformAdmin ? (
        <>
          <FormTextField control={form.control} name="Name" label="Name" />
          <FormTextField control={form.control} name="Email" label="Email" type="email" />
          <FormSelectField
            control={form.control}
            name="PrimaryClassification"
            label="Primary classification"
            options={[
              { value: 'MEMBER', label: 'Member' },
              { value: 'ADVISOR', label: 'Advisor' },
            ]}
          />
          <FormTextField control={form.control} name="ActiveCampaignId" label="ActiveCampaign id" />
        </>
      ) : (
        <div className="text-sm text-gray-700">
          <p className="font-medium">{user.Name}</p>
          <p>{user.Email}</p>
        </div>
      )}
      {user.Role !== null && (
        <FormSelectField
          control={form.control}
          name="Role"
          label="Role"
          options={[
            { value: 'ADMIN', label: roleLabels.ADMIN },
            { value: 'USER', label: roleLabels.USER },
          ]}
          disabled={!canChangeRole}
        />
      )}
      <FormSelectField
        control={form.control}
        name="JobTitle"
        label="Job function"
        options={jobOptionsFor(user.JobTitle ?? '')}
        blankLabel=""
      />
      {showsAssignToAllClients(user, editor) && (
        <FormCheckboxField control={form.control} name="AssignToAllClients" label="Assign to all clients" />
      )}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={form.formState.isSubmitting} disabled={success !== null}>
          Save
        </Button>
      </div>
    </form>
  );
};
