import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { LeaveTenantRequest } from '../../../../contracts/auth';
import { errorCatalogue } from '../../api/error-catalogue';
import { useLeaveTenant } from '../../api/queries/users';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { FormCheckboxField } from '../../forms/form-fields';
import { serverTextOr, useServerErrors } from '../../forms/use-server-errors';
import { useAppServices } from '../../session/app-services-context';
import { useSession } from '../../session/session-query';
import { replaceSession } from '../../session/session-actions';

export const leaveConfirmation = 'I understand that I will lose access to manage this company.';

/** The box, unticked at first, is the request's `confirmed`, which must be true; the tenant is the current one. */
const LeaveForm = z.object({ confirmed: z.boolean().pipe(LeaveTenantRequest.shape.confirmed) });

/**
 * Leaving a company (portal.md section 4): the box must be ticked; afterwards the session is replaced
 * and the user goes to /overview. `refusal` says why leaving is not allowed, when it is not.
 */
export const LeaveCompanyModal = (props: { open: boolean; refusal: string | null; onClose: () => void }) => {
  const services = useAppServices();
  const leaveTenant = useLeaveTenant();
  const session = useSession();
  const form = useForm({
    resolver: zodResolver(LeaveForm),
    defaultValues: { confirmed: false },
  });
  const serverErrors = useServerErrors(form, {
    failure: serverTextOr(errorCatalogue.default),
    alwaysSayFailure: true,
  });
  const understood = useWatch({ control: form.control, name: 'confirmed' });
  // Leaving ends in another page: the button stays busy until then.
  const leaving = form.formState.isSubmitting || form.formState.isSubmitSuccessful;
  const tenantId = session.tenant?.Id;

  const submit = form.handleSubmit(async () => {
    if (tenantId === undefined) return;
    try {
      const next = await leaveTenant.mutateAsync(tenantId);
      replaceSession(services, next);
      services.navigate('/overview');
    } catch (error) {
      serverErrors.show(error);
    }
  });

  return (
    <ModalDialog open={props.open} title="Leave company" onClose={props.onClose}>
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        <ErrorCallout message={serverErrors.message ?? props.refusal} />
        <FormCheckboxField
          control={form.control}
          name="confirmed"
          label={leaveConfirmation}
          disabled={props.refusal !== null}
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={props.onClose}>
            Cancel
          </Button>
          <Button
            type="submit"
            color="red"
            disabled={!understood || props.refusal !== null}
            loading={leaving}
          >
            Leave company
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
};
