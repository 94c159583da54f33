import { Button } from '@tremor/react';
import { useState, type FormEvent } from 'react';
import type { Tenant, UpdateTenantRequest } from '../../../../contracts/api/tenants';
import type { BusinessModel, TenantClassification } from '../../../../contracts/events/tenant';
import { isValidationError } from '../../api/api-error';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { useTimedMessage } from '../../components/use-timed-message';
import { formErrorsOf, type FormErrors } from '../../forms/field-errors';
import { SelectField } from '../../forms/select-field';
import { TextField } from '../../forms/text-field';
import { useIndustries } from '../../api/queries/industries';
import { useUpdateTenant } from '../../api/queries/tenants';
import { IndustryField } from '../welcome/industry-field';
import { companyErrors, companyMessages, monthDayOptions, weekdayOptions } from './settings-rules';

const classificationOptions = [
  { value: 'BUSINESS', label: 'Business' },
  { value: 'FIRM', label: 'Advisory firm' },
];
const businessModelOptions = [
  { value: 'B2B', label: 'B2B' },
  { value: 'HYBRID', label: 'Hybrid' },
  { value: 'B2C', label: 'B2C' },
];

type Values = {
  Name: string;
  Classification: TenantClassification;
  BusinessModel: BusinessModel | '';
  Industry: string;
  FriendlyName: string;
  ClientWeeklyDay: string;
  ClientMonthlyDay: string;
};

const valuesOf = (tenant: Tenant): Values => ({
  Name: tenant.Name,
  Classification: tenant.Classification,
  BusinessModel: tenant.BusinessModel ?? '',
  Industry: tenant.Industry?.FreeForm ?? '',
  FriendlyName: tenant.FriendlyName ?? '',
  ClientWeeklyDay: tenant.ClientsPartner?.WeeklyDay?.toString() ?? '',
  ClientMonthlyDay: tenant.ClientsPartner?.MonthlyDay?.toString() ?? '',
});

type CompanySettingsFormProps = { tenant: Tenant; disabled: boolean };

/**
 * Company or firm settings (portal.md section 2.3): name, classification, business model, industry,
 * the firm's display name for client reports and its client defaults (report days of new clients).
 */
export const CompanySettingsForm = ({ tenant, disabled }: CompanySettingsFormProps) => {
  const updateTenant = useUpdateTenant();
  const industries = useIndustries('NAICS2017');
  const [values, setValues] = useState<Values>(() => valuesOf(tenant));
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [success, setSuccess] = useTimedMessage();
  const [saving, setSaving] = useState(false);
  const isFirm = values.Classification === 'FIRM';

  const set =
    <K extends keyof Values>(field: K) =>
    (value: Values[K]) =>
      setValues((current) => ({ ...current, [field]: value }));

  const requestOf = (): UpdateTenantRequest => {
    const freeForm = values.Industry.trim();
    const chosen = industries.data?.find((industry) => industry.Title === freeForm);
    const body: UpdateTenantRequest = {
      Name: values.Name.trim(),
      Classification: values.Classification,
      BusinessModel: values.BusinessModel === '' ? null : values.BusinessModel,
      Industry: freeForm
        ? { FreeForm: freeForm, NAICS2017: chosen?.Code ?? null, Description: chosen?.Description ?? null }
        : null,
      FriendlyName: values.FriendlyName.trim() || null,
    };
    // Client defaults live on the firm's partner; blank means no change.
    if (isFirm && tenant.ClientsPartner) {
      body.ClientsPartner = {
        ...(values.ClientWeeklyDay === '' ? {} : { WeeklyDay: Number(values.ClientWeeklyDay) }),
        ...(values.ClientMonthlyDay === '' ? {} : { MonthlyDay: Number(values.ClientMonthlyDay) }),
      };
    }
    return body;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setSuccess(null);
    const found = companyErrors(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      await updateTenant.mutateAsync({ tenantId: tenant.Id, body: requestOf() });
      setSuccess(companyMessages.updated);
    } catch (error) {
      if (isValidationError(error)) setErrors(formErrorsOf(error.properties));
      setFailure(companyMessages.updateFailed);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-label="Company settings">
      <fieldset disabled={disabled} className="space-y-4">
        <SuccessCallout message={success} />
        <ErrorCallout message={failure} />
        <TextField
          name="Name"
          label="Name"
          value={values.Name}
          onValueChange={set('Name')}
          error={errors.Name}
        />
        <SelectField
          name="Classification"
          label="Classification"
          value={values.Classification}
          onValueChange={(value) => set('Classification')(value as TenantClassification)}
          options={classificationOptions}
          error={errors.Classification}
        />
        <SelectField
          name="BusinessModel"
          label="Business model"
          value={values.BusinessModel}
          onValueChange={(value) => set('BusinessModel')(value as BusinessModel | '')}
          options={businessModelOptions}
          blankLabel=""
          error={errors.BusinessModel}
        />
        <IndustryField
          value={values.Industry}
          onValueChange={set('Industry')}
          industries={industries.data ?? []}
          error={errors['Industry.FreeForm'] ?? errors.Industry}
        />
        {isFirm && (
          <TextField
            name="FriendlyName"
            label="Display name for client reports"
            value={values.FriendlyName}
            onValueChange={set('FriendlyName')}
            error={errors.FriendlyName}
          />
        )}
        {isFirm && tenant.ClientsPartner && (
          <fieldset className="space-y-4 rounded-tremor-default border border-gray-200 p-3">
            <legend className="px-1 text-sm font-medium text-gray-700">Client defaults</legend>
            <SelectField
              name="ClientWeeklyDay"
              label="Weekly report day of new clients"
              value={values.ClientWeeklyDay}
              onValueChange={set('ClientWeeklyDay')}
              options={weekdayOptions}
              blankLabel="No change"
            />
            <SelectField
              name="ClientMonthlyDay"
              label="Monthly report day of new clients"
              value={values.ClientMonthlyDay}
              onValueChange={set('ClientMonthlyDay')}
              options={monthDayOptions}
              blankLabel="No change"
            />
          </fieldset>
        )}
        <Button type="submit" loading={saving}>
          Save company
        </Button>
      </fieldset>
    </form>
  );
};
