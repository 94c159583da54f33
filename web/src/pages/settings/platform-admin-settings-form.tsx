import { Button } from '@tremor/react';
import { useState, type FormEvent } from 'react';
import type { Tenant, UpdateTenantRequest } from '../../../../contracts/api/tenants';
import type { UsageType } from '../../../../contracts/events/tenant';
import { isValidationError } from '../../api/api-error';
import { useUpdateTenant } from '../../api/queries/tenants';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { useTimedMessage } from '../../components/use-timed-message';
import { formErrorsOf, type FormErrors } from '../../forms/field-errors';
import { SelectField } from '../../forms/select-field';
import { TextField } from '../../forms/text-field';
import { companyMessages } from './settings-rules';

const usageOptions = [
  { value: 'NORMAL', label: 'Normal' },
  { value: 'TEST', label: 'Test (not billed)' },
  { value: 'INTERNAL', label: 'Internal' },
  { value: 'DEMO', label: 'Demo' },
];

type Values = {
  UsageType: UsageType;
  PartnerId: string;
  Referrer: string;
  ReferrerIdentifier: string;
  LandingPage: string;
  PlanIdentifier: string;
};

const orNull = (value: string) => value.trim() || null;

/** The platform admin's fields of a company (portal.md section 6): tenant type, partner, referral, plan. */
export const PlatformAdminSettingsForm = ({ tenant }: { tenant: Tenant }) => {
  const updateTenant = useUpdateTenant();
  const [values, setValues] = useState<Values>({
    UsageType: tenant.UsageType,
    PartnerId: tenant.PartnerId?.toString() ?? '',
    Referrer: tenant.Referrer ?? '',
    ReferrerIdentifier: tenant.ReferrerIdentifier ?? '',
    LandingPage: tenant.LandingPage ?? '',
    PlanIdentifier: '',
  });
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [success, setSuccess] = useTimedMessage();
  const [saving, setSaving] = useState(false);
  const set = (field: keyof Values) => (value: string) =>
    setValues((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const partner = values.PartnerId.trim();
    if (partner !== '' && !/^\d+$/.test(partner)) {
      setErrors({ PartnerId: 'Enter the partner number.' });
      return;
    }
    setErrors({});
    const body: UpdateTenantRequest = {
      UsageType: values.UsageType,
      PartnerId: partner === '' ? null : Number(partner),
      Referrer: orNull(values.Referrer),
      ReferrerIdentifier: orNull(values.ReferrerIdentifier),
      LandingPage: orNull(values.LandingPage),
      // Blank keeps the plan as it is.
      ...(values.PlanIdentifier.trim() ? { PlanIdentifier: values.PlanIdentifier.trim() } : {}),
    };
    setSaving(true);
    try {
      await updateTenant.mutateAsync({ tenantId: tenant.Id, body });
      setSuccess(companyMessages.updated);
    } catch (error) {
      if (isValidationError(error)) setErrors(formErrorsOf(error.properties));
      setFailure(companyMessages.updateFailed);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      className="space-y-4"
      aria-label="Platform admin settings"
    >
      <SuccessCallout message={success} />
      <ErrorCallout message={failure} />
      <SelectField
        name="UsageType"
        label="Tenant type"
        value={values.UsageType}
        onValueChange={(value) => set('UsageType')(value)}
        options={usageOptions}
        error={errors.UsageType}
      />
      <TextField
        name="PartnerId"
        label="Partner number"
        value={values.PartnerId}
        onValueChange={set('PartnerId')}
        error={errors.PartnerId}
      />
      <TextField
        name="Referrer"
        label="Referrer"
        value={values.Referrer}
        onValueChange={set('Referrer')}
        error={errors.Referrer}
      />
      <TextField
        name="ReferrerIdentifier"
        label="Referrer identifier"
        value={values.ReferrerIdentifier}
        onValueChange={set('ReferrerIdentifier')}
        error={errors.ReferrerIdentifier}
      />
      <TextField
        name="LandingPage"
        label="Landing page"
        value={values.LandingPage}
        onValueChange={set('LandingPage')}
        error={errors.LandingPage}
      />
      <TextField
        name="PlanIdentifier"
        label="Plan identifier"
        hint={`Blank keeps the current plan${tenant.Subscription ? ` (${tenant.Subscription.Plan.identifier})` : ''}.`}
        value={values.PlanIdentifier}
        onValueChange={set('PlanIdentifier')}
        error={errors.PlanIdentifier}
      />
      <Button type="submit" loading={saving}>
        Save admin settings
      </Button>
    </form>
  );
};
