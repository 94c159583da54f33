import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { UpdateTenantRequest, type Tenant } from '../../../../contracts/api/tenants';
import { useUpdateTenant } from '../../api/queries/tenants';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { useTimedMessage } from '../../components/use-timed-message';
import { FormSelectField, FormTextField } from '../../forms/form-fields';
import { useServerErrors } from '../../forms/use-server-errors';
import { companyMessages } from './settings-rules';

const usageOptions = [
  { value: 'NORMAL', label: 'Normal' },
  { value: 'TEST', label: 'Test (not billed)' },
  { value: 'INTERNAL', label: 'Internal' },
  { value: 'DEMO', label: 'Demo' },
];

const tenantFields = UpdateTenantRequest.shape;
/** A blank text field clears the value. */
const textOrNull = (text: z.ZodString) => text.transform((value) => value || null);

/** The platform admin's fields in the request's rules; the partner is typed as its number. */
const PlatformAdminForm = z.object({
  UsageType: tenantFields.UsageType.unwrap(),
  PartnerId: z
    .string()
    .trim()
    .regex(/^(0*[1-9]\d*)?$/, 'Enter the partner number.')
    .transform((partner) => (partner === '' ? null : Number(partner)))
    .pipe(tenantFields.PartnerId.unwrap()),
  Referrer: textOrNull(tenantFields.Referrer.unwrap().unwrap()),
  ReferrerIdentifier: textOrNull(tenantFields.ReferrerIdentifier.unwrap().unwrap()),
  LandingPage: textOrNull(tenantFields.LandingPage.unwrap().unwrap()),
  ActiveCampaignId: textOrNull(tenantFields.ActiveCampaignId.unwrap().unwrap()),
  PlanIdentifier: tenantFields.PlanIdentifier.unwrap(),
});

/** The platform admin's fields of a company (portal.md section 6): tenant type, partner, referral, ids, plan. */
export const PlatformAdminSettingsForm = ({ tenant }: { tenant: Tenant }) => {
  const updateTenant = useUpdateTenant();
  const form = useForm({
    resolver: zodResolver(PlatformAdminForm),
    defaultValues: {
      UsageType: tenant.UsageType,
      PartnerId: tenant.PartnerId?.toString() ?? '',
      Referrer: tenant.Referrer ?? '',
      ReferrerIdentifier: tenant.ReferrerIdentifier ?? '',
      LandingPage: tenant.LandingPage ?? '',
      ActiveCampaignId: tenant.ActiveCampaignId ?? '',
      PlanIdentifier: '',
    },
  });
  const serverErrors = useServerErrors(form, {
    failure: companyMessages.updateFailed,
    alwaysSayFailure: true,
  });
  const [success, setSuccess] = useTimedMessage();

  const submit = form.handleSubmit(async ({ PlanIdentifier, ...fields }) => {
    try {
      await updateTenant.mutateAsync({
        tenantId: tenant.Id,
        // Blank keeps the plan as it is.
        body: { ...fields, ...(PlanIdentifier ? { PlanIdentifier } : {}) },
      });
      setSuccess(companyMessages.updated);
    } catch (error) {
      serverErrors.show(error);
    }
  });

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      className="space-y-4"
      aria-label="Platform admin settings"
    >
      <SuccessCallout message={success} />
      <ErrorCallout message={serverErrors.message} />
      <FormSelectField control={form.control} name="UsageType" label="Tenant type" options={usageOptions} />
      <FormTextField control={form.control} name="PartnerId" label="Partner number" />
      <FormTextField control={form.control} name="Referrer" label="Referrer" />
      <FormTextField control={form.control} name="ReferrerIdentifier" label="Referrer identifier" />
      <FormTextField control={form.control} name="LandingPage" label="Landing page" />
      <FormTextField
        control={form.control}
        name="ActiveCampaignId"
        label="ActiveCampaign account id"
        hint="Filled by an ActiveCampaign sync when an account has the company's name."
      />
      <FormTextField
        control={form.control}
        name="PlanIdentifier"
        label="Plan identifier"
        hint={`Blank keeps the current plan${tenant.Subscription ? ` (${tenant.Subscription.Plan.identifier})` : ''}.`}
      />
      <Button type="submit" loading={form.formState.isSubmitting}>
        Save admin settings
      </Button>
    </form>
  );
};
