import { Button } from '@tremor/react';
import { useState } from 'react';
import type { TeamMember } from '../../../../contracts/api/users';
import { ApiError } from '../../api/api-error';
import { useChangeUserStatus } from '../../api/queries/users';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { CheckboxField } from '../../forms/checkbox-field';

/**
 * Disable or enable a member's access (portal.md section 4, Team member); the change may take their
 * report subscriptions in this company with it (ToggleReports).
 */
export const AccessModal = ({ member, onClose }: { member: TeamMember | null; onClose: () => void }) => {
  const changeStatus = useChangeUserStatus();
  const [toggleReports, setToggleReports] = useState(true);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const disabling = member?.Membership.Status === 'ACTIVE';

  const close = () => {
    setFailure(null);
    setToggleReports(true);
    onClose();
  };

  const confirm = async () => {
    if (!member) return;
    setSaving(true);
    setFailure(null);
    try {
      await changeStatus.mutateAsync({
        userId: member.Id,
        body: { Status: disabling ? 'INACTIVE' : 'ACTIVE', ToggleReports: toggleReports },
      });
      close();
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : 'There was an error while updating the user.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <ModalDialog
      open={member !== null}
      title={disabling ? 'Disable access' : 'Enable access'}
      onClose={close}
    >
      <ErrorCallout message={failure} />
      <p className="text-sm text-gray-700">
        {disabling
          ? `${member?.Name ?? ''} will no longer be able to use this company.`
          : `${member?.Name ?? ''} will be able to use this company again.`}
      </p>
      <CheckboxField
        name="ToggleReports"
        label={disabling ? 'Also stop their report emails' : 'Also restore their report emails'}
        checked={toggleReports}
        onCheckedChange={setToggleReports}
      />
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={close}>
          Cancel
        </Button>
        <Button
          type="button"
          color={disabling ? 'red' : 'blue'}
          loading={saving}
          onClick={() => void confirm()}
        >
          {disabling ? 'Disable access' : 'Enable access'}
        </Button>
      </div>
    </ModalDialog>
  );
};
