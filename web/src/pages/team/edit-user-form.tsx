import { Button } from '@tremor/react';
import { useState, type FormEvent } from 'react';
import type { UpdateUserRequest } from '../../../../contracts/api/users';
import { userMessages } from '../../../../contracts/api/users';
import type { PrimaryClassification, TenantRole } from '../../../../contracts/events/user';
import { isValidationError } from '../../api/api-error';
import { useUpdateUser } from '../../api/queries/users';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { CheckboxField } from '../../forms/checkbox-field';
import { formErrorsOf, type FormErrors } from '../../forms/field-errors';
import { SelectField } from '../../forms/select-field';
import { TextField } from '../../forms/text-field';
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
  const [values, setValues] = useState<Values>({
    Name: user.Name,
    Email: user.Email,
    PrimaryClassification: user.PrimaryClassification,
    ActiveCampaignId: user.ActiveCampaignId ?? '',
    JobTitle: user.JobTitle ?? '',
    Role: user.Role ?? '',
    AssignToAllClients: user.AssignToAllClients,
  });
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const canChangeRole = editor.isPlatformAdmin || editor.isTenantAdmin;

  const set =
    <K extends keyof Values>(field: K) =>
    (value: Values[K]) =>
      setValues((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found: FormErrors = {};
    if (editor.isPlatformAdmin && !values.Name.trim()) found.Name = 'Name is required';
    if (editor.isPlatformAdmin && !values.Email.trim()) found.Email = 'Email is required';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      await updateUser.mutateAsync({ userId: user.Id, body: updateRequestOf(values, { user, editor }) });
      setSuccess(updatedUserMessage);
      window.setTimeout(onDone, closeAfterMs);
    } catch (error) {
      if (isValidationError(error)) setErrors(formErrorsOf(error.properties));
      setFailure(userMessages.updateFailed);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4" aria-label="Edit user">
      <SuccessCallout message={success} />
      <ErrorCallout message={failure} />
      {editor.isPlatformAdmin ? (
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
          <SelectField
            name="PrimaryClassification"
            label="Primary classification"
            value={values.PrimaryClassification}
            onValueChange={(value) => set('PrimaryClassification')(value as PrimaryClassification)}
            options={[
              { value: 'MEMBER', label: 'Member' },
              { value: 'ADVISOR', label: 'Advisor' },
            ]}
          />
          <TextField
            name="ActiveCampaignId"
            label="ActiveCampaign id"
            value={values.ActiveCampaignId}
            onValueChange={set('ActiveCampaignId')}
            error={errors.ActiveCampaignId}
          />
        </>
      ) : (
        <div className="text-sm text-gray-700">
          <p className="font-medium">{user.Name}</p>
          <p>{user.Email}</p>
        </div>
      )}
      {user.Role !== null && (
        <SelectField
          name="Role"
          label="Role"
          value={values.Role}
          onValueChange={(value) => set('Role')(value as TenantRole)}
          options={[
            { value: 'ADMIN', label: roleLabels.ADMIN },
            { value: 'USER', label: roleLabels.USER },
          ]}
          disabled={!canChangeRole}
          error={errors.Role}
        />
      )}
      <SelectField
        name="JobTitle"
        label="Job function"
        value={values.JobTitle}
        onValueChange={set('JobTitle')}
        options={jobOptionsFor(user.JobTitle ?? '')}
        blankLabel=""
        error={errors.JobTitle}
      />
      {showsAssignToAllClients(user, editor) && (
        <CheckboxField
          name="AssignToAllClients"
          label="Assign to all clients"
          checked={values.AssignToAllClients}
          onCheckedChange={set('AssignToAllClients')}
          error={errors.AssignToAllClients}
        />
      )}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={saving} disabled={success !== null}>
          Save
        </Button>
      </div>
    </form>
  );
};
