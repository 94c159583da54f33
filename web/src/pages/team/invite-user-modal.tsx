import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useForm } from 'react-hook-form';
import type { InviteWorkflow } from '../../../../contracts/events/invite';
import { errorCatalogue } from '../../api/error-catalogue';
import { useInviteUser } from '../../api/queries/users';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { FormCheckboxField, FormSelectField, FormTextField } from '../../forms/form-fields';
import { serverTextOr, useServerErrors } from '../../forms/use-server-errors';
import { emptyInvite, inviteForm } from './invite-form';
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
  const form = useForm({
    resolver: zodResolver(inviteForm({ isFirm, workflow })),
    defaultValues: emptyInvite(workflow),
  });
  const accounting = workflow === 'ACCOUNTING_ADMIN';
  const roles = inviteRoleOptions({ isFirm, workflow });
  const asksRole = !accounting || roles.length > 1;
  const serverErrors = useServerErrors(form, {
    failure: serverTextOr(errorCatalogue.default),
    // The modal has always said the failure above its fields as well (portal.md section 8).
    alwaysSayFailure: true,
    // A property on a field this invitation does not ask is said above the form instead.
    shownFields: [
      ...(asksRole ? (['role'] as const) : []),
      'name',
      'email',
      ...(accounting ? [] : (['jobTitle'] as const)),
      'subscribeToReports',
      ...(isFirm ? (['classifyAsAdvisor'] as const) : []),
    ],
  });

  const close = () => {
    form.reset(emptyInvite(workflow));
    onClose();
  };

  const submit = form.handleSubmit(async (request) => {
    try {
      const invited = await inviteUser.mutateAsync(request);
      close();
      onInvited(
        invited.status === 'sent'
          ? `Invitation sent to ${invited.Email}.`
          : `Invitation to ${invited.Email} saved; the email will be sent shortly.`,
      );
    } catch (error) {
      serverErrors.show(error);
    }
  });

  return (
    <ModalDialog open={open} title={accounting ? 'Invite your accountant' : 'Invite user'} onClose={close}>
      <form
        noValidate
        onSubmit={(event) => void submit(event)}
        className="space-y-4"
        aria-label="Invite user"
      >
        <ErrorCallout message={serverErrors.message} />
        {accounting && (
          <p className="text-sm text-gray-600">
            We will email them an invitation with instructions for connecting your accounting platform.
          </p>
        )}
        {asksRole && (
          <FormSelectField
            control={form.control}
            name="role"
            label={accounting ? 'Who are you inviting?' : 'Role'}
            options={roles}
            {...(accounting ? {} : { blankLabel: 'Choose a role' })}
          />
        )}
        <FormTextField control={form.control} name="name" label="Name" />
        <FormTextField control={form.control} name="email" label="Email" type="email" autoComplete="off" />
        {!accounting && (
          <FormSelectField
            control={form.control}
            name="jobTitle"
            label="Job function"
            options={jobOptions}
            blankLabel=""
          />
        )}
        <FormCheckboxField control={form.control} name="subscribeToReports" label="Subscribe to reports" />
        {isFirm && (
          <FormCheckboxField control={form.control} name="classifyAsAdvisor" label="Classify as advisor" />
        )}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" loading={form.formState.isSubmitting}>
            Send invitation
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
};
