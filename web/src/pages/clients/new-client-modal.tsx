import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { CreateTenantRequest, tenantMessages } from '../../../../contracts/api/tenants';
import { BusinessModel } from '../../../../contracts/events/tenant';
import { useIndustries } from '../../api/queries/industries';
import { useCreateTenant } from '../../api/queries/tenants';
import { errorCatalogue } from '../../api/error-catalogue';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { FormSelectField, FormTextField } from '../../forms/form-fields';
import { serverTextOr, useServerErrors } from '../../forms/use-server-errors';
import { useAppServices } from '../../session/app-services-context';
import { switchToTenant } from '../../session/session-actions';
import { FormIndustryField } from '../welcome/industry-field';

export const newClientMessages = {
  nameRequired: 'Please enter company name',
  industryRequired: tenantMessages.industryRequired,
  classificationRequired: tenantMessages.classificationRequired,
} as const;

/**
 * portal.md section 5, new client: the request's rules, company name, industry and business model
 * required; the industry typed as text, the business model blank until chosen.
 */
export const NewClientForm = CreateTenantRequest.pick({ Name: true }).extend({
  Industry: CreateTenantRequest.shape.Industry.unwrap().shape.FreeForm.min(
    1,
    newClientMessages.industryRequired,
  ),
  BusinessModel: z
    .string()
    .pipe(z.enum(BusinessModel.options, { error: newClientMessages.classificationRequired })),
});

const empty = { Name: '', Industry: '', BusinessModel: '' };

const businessModelOptions = [
  { value: 'B2B', label: 'B2B' },
  { value: 'HYBRID', label: 'Hybrid' },
  { value: 'B2C', label: 'B2C' },
];

/**
 * New client: Enter submits (it is a form); once created, the current company becomes the new client
 * and the user goes to /overview.
 */
export const NewClientModal = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const services = useAppServices();
  const createTenant = useCreateTenant();
  const industries = useIndustries('NAICS2017');
  const form = useForm({ resolver: zodResolver(NewClientForm), defaultValues: empty });
  const serverErrors = useServerErrors(form, {
    failure: serverTextOr(errorCatalogue.default),
    // The modal says the failure even when the server's errors sit on fields (the generic formatter).
    alwaysSayFailure: true,
    aliases: { 'Industry.FreeForm': 'Industry', Classification: 'BusinessModel' },
  });
  // Busy until the switch to the new client has taken the user away.
  const saving = form.formState.isSubmitting || form.formState.isSubmitSuccessful;

  const close = () => {
    form.reset(empty);
    onClose();
  };

  const submit = form.handleSubmit(async (values) => {
    const chosen = industries.data?.find((industry) => industry.Title === values.Industry);
    try {
      const created = await createTenant.mutateAsync({
        Name: values.Name,
        Classification: 'BUSINESS',
        BusinessModel: values.BusinessModel,
        Industry: {
          FreeForm: values.Industry,
          NAICS2017: chosen?.Code ?? null,
          Description: chosen?.Description ?? null,
        },
      });
      await switchToTenant(services, { tenantId: created.Id, to: '/overview' });
    } catch (error) {
      // The errors it sets also mark the submit as not successful, so Add client is enabled again.
      serverErrors.show(error);
    }
  });

  return (
    <ModalDialog open={open} title="Add client" onClose={close}>
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4" aria-label="Add client">
        <ErrorCallout message={serverErrors.message} />
        <FormTextField control={form.control} name="Name" label="Company name" />
        <FormIndustryField control={form.control} name="Industry" industries={industries.data ?? []} />
        <FormSelectField
          control={form.control}
          name="BusinessModel"
          label="Business model"
          options={businessModelOptions}
          blankLabel=""
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            Add client
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
};
