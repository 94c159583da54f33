import { Button } from '@tremor/react';
import { useState } from 'react';
import { ApiError } from '../../api/api-error';
import { errorCatalogue } from '../../api/error-catalogue';
import { useLeaveTenant } from '../../api/queries/users';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { CheckboxField } from '../../forms/checkbox-field';
import { useAppServices } from '../../session/app-services-context';
import { useSession } from '../../session/session-query';
import { replaceSession } from '../../session/session-actions';

export const leaveConfirmation = 'I understand that I will lose access to manage this company.';

/**
 * Leaving a company (portal.md section 4): the box must be ticked; afterwards the session is replaced
 * and the user goes to /overview. `refusal` says why leaving is not allowed, when it is not.
 */
export const LeaveCompanyModal = (props: { open: boolean; refusal: string | null; onClose: () => void }) => {
  const services = useAppServices();
  const leaveTenant = useLeaveTenant();
  const session = useSession();
  const [understood, setUnderstood] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  const tenantId = session.tenant?.Id;

  const leave = async () => {
    if (!understood || tenantId === undefined) return;
    setLeaving(true);
    setFailure(null);
    try {
      const next = await leaveTenant.mutateAsync(tenantId);
      replaceSession(services, next);
      services.navigate('/overview');
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : errorCatalogue.default);
      setLeaving(false);
    }
  };

  return (
    <ModalDialog open={props.open} title="Leave company" onClose={props.onClose}>
      <ErrorCallout message={failure ?? props.refusal} />
      <CheckboxField
        name="understood"
        label={leaveConfirmation}
        checked={understood}
        onCheckedChange={setUnderstood}
        disabled={props.refusal !== null}
      />
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={props.onClose}>
          Cancel
        </Button>
        <Button
          type="button"
          color="red"
          disabled={!understood || props.refusal !== null}
          loading={leaving}
          onClick={() => void leave()}
        >
          Leave company
        </Button>
      </div>
    </ModalDialog>
  );
};
