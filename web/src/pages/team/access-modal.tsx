import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useForm } from 'react-hook-form';
import { UserStatusRequest, userMessages, type TeamMember } from '../../../../contracts/api/users';
import { useChangeUserStatus } from '../../api/queries/users';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { FormCheckboxField } from '../../forms/form-fields';
import { serverTextOr, useServerErrors } from '../../forms/use-server-errors';

/** The one choice the modal asks; the status follows from the member's current one. */
const AccessForm = UserStatusRequest.pick({ ToggleReports: true });
const withReports = { ToggleReports: true };

/**
 * Disable or enable a member's access (portal.md section 4, Team member); the change may take their
 * report subscriptions in this company with it (ToggleReports).
 */
export const AccessModal = ({ member, onClose }: { member: TeamMember | null; onClose: () => void }) => {
  const changeStatus = useChangeUserStatus();
  const form = useForm({ resolver: zodResolver(AccessForm), defaultValues: withReports });
  const serverErrors = useServerErrors(form, {
    failure: serverTextOr(userMessages.updateFailed),
    // The modal has always said why the change failed above its choice.
    alwaysSayFailure: true,
  });
  const disabling = member?.Membership.Status === 'ACTIVE';

  const close = () => {
    form.reset(withReports);
    onClose();
  };

  const submit = form.handleSubmit(async ({ ToggleReports }) => {
    if (!member) return;
    try {
      await changeStatus.mutateAsync({
        userId: member.Id,
        body: { Status: disabling ? 'INACTIVE' : 'ACTIVE', ToggleReports },
      });
      close();
    } catch (error) {
      serverErrors.show(error);
    }
  });

  return (
    <ModalDialog
      open={member !== null}
      title={disabling ? 'Disable access' : 'Enable access'}
      onClose={close}
    >
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        <ErrorCallout message={serverErrors.message} />
        <p className="text-sm text-gray-700">
          {disabling
            ? `${member?.Name ?? ''} will no longer be able to use this company.`
            : `${member?.Name ?? ''} will be able to use this company again.`}
        </p>
        <FormCheckboxField
          control={form.control}
          name="ToggleReports"
          label={disabling ? 'Also stop their report emails' : 'Also restore their report emails'}
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" color={disabling ? 'red' : 'blue'} loading={form.formState.isSubmitting}>
            {disabling ? 'Disable access' : 'Enable access'}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
};
