import { Button } from '@tremor/react';
import { useState, type FormEvent } from 'react';
import type { InviteWorkflow } from '../../../../contracts/events/invite';
import { ApiError, isValidationError } from '../../api/api-error';
import { errorCatalogue } from '../../api/error-catalogue';
import { useInviteUser } from '../../api/queries/users';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { CheckboxField } from '../../forms/checkbox-field';
import { formErrorsOf, type FormErrors } from '../../forms/field-errors';
import { SelectField } from '../../forms/select-field';
import { TextField } from '../../forms/text-field';
import { checkInvite, emptyInvite, type InviteValues } from './invite-form';
import { inviteRoleOptions, jobFunctions } from './role-options';

type InviteUserModalProps = {
  open: boolean;
  onClose: () => void;
  /** The invitee's email went out (or is queued): the page says so. */
  onInvited: (message: string) => void;
  isFirm: boolean;
  workflow?: InviteWorkflow;
};

const jobOptions = jobFunctions.map((job) => ({ value: job, label: job }));

/**
 * Invite user (portal.md sections 2.3 and 5). In accounting-admin mode the role and job function are
 * not asked: the invitation is an administrator's with Accounting/Finance and connection instructions.
 */
export const InviteUserModal = ({
  open,
  onClose,
  onInvited,
  isFirm,
  workflow = 'STANDARD',
}: InviteUserModalProps) => {
  const inviteUser = useInviteUser();
  const [values, setValues] = useState<InviteValues>(() => emptyInvite(workflow));
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const accounting = workflow === 'ACCOUNTING_ADMIN';
  const roles = inviteRoleOptions({ isFirm, workflow });

  const set =
    <K extends keyof InviteValues>(field: K) =>
    (value: InviteValues[K]) =>
      setValues((current) => ({ ...current, [field]: value }));

  const close = () => {
    setValues(emptyInvite(workflow));
    setErrors({});
    setFailure(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const checked = checkInvite(values, { isFirm, workflow });
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setSending(true);
    try {
      const invited = await inviteUser.mutateAsync(checked.data);
      close();
      onInvited(
        invited.status === 'sent'
          ? `Invitation sent to ${invited.Email}.`
          : `Invitation to ${invited.Email} saved; the email will be sent shortly.`,
      );
    } catch (error) {
      if (isValidationError(error)) setErrors(formErrorsOf(error.properties));
      setFailure(error instanceof ApiError ? error.message : errorCatalogue.default);
    } finally {
      setSending(false);
    }
  };

  return (
    <ModalDialog open={open} title={accounting ? 'Invite your accountant' : 'Invite user'} onClose={close}>
      <form
        noValidate
        onSubmit={(event) => void submit(event)}
        className="space-y-4"
        aria-label="Invite user"
      >
        <ErrorCallout message={failure} />
        {accounting && (
          <p className="text-sm text-gray-600">
            We will email them an invitation with instructions for connecting your accounting platform.
          </p>
        )}
        {(!accounting || roles.length > 1) && (
          <SelectField
            name="role"
            label={accounting ? 'Who are you inviting?' : 'Role'}
            value={values.role}
            onValueChange={(value) => set('role')(value as InviteValues['role'])}
            options={roles}
            {...(accounting ? {} : { blankLabel: 'Choose a role' })}
            error={errors.role}
          />
        )}
        <TextField
          name="name"
          label="Name"
          value={values.name}
          onValueChange={set('name')}
          error={errors.name}
        />
        <TextField
          name="email"
          label="Email"
          type="email"
          autoComplete="off"
          value={values.email}
          onValueChange={set('email')}
          error={errors.email}
        />
        {!accounting && (
          <SelectField
            name="jobTitle"
            label="Job function"
            value={values.jobTitle}
            onValueChange={set('jobTitle')}
            options={jobOptions}
            blankLabel=""
            error={errors.jobTitle}
          />
        )}
        <CheckboxField
          name="subscribeToReports"
          label="Subscribe to reports"
          checked={values.subscribeToReports}
          onCheckedChange={set('subscribeToReports')}
        />
        {isFirm && (
          <CheckboxField
            name="classifyAsAdvisor"
            label="Classify as advisor"
            checked={values.classifyAsAdvisor}
            onCheckedChange={set('classifyAsAdvisor')}
            error={errors.classifyAsAdvisor}
          />
        )}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" loading={sending}>
            Send invitation
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
};
