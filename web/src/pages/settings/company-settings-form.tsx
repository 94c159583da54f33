import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useForm, useWatch } from 'react-hook-form';
import type { Tenant, UpdateTenantRequest } from '../../../../contracts/api/tenants';
import type { Industry } from '../../../../contracts/industries';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { useTimedMessage } from '../../components/use-timed-message';
import { FormSelectField, FormTextField } from '../../forms/form-fields';
import { useServerErrors } from '../../forms/use-server-errors';
import { useIndustries } from '../../api/queries/industries';
import { useUpdateTenant } from '../../api/queries/tenants';
import { FormIndustryField } from '../welcome/industry-field';
import {
  CompanyForm,
  companyMessages,
  monthDayOptions,
  weekdayOptions,
  type CompanyValues,
} from './settings-rules';

const classificationOptions = [
  { value: 'BUSINESS', label: 'Business' },
  { value: 'FIRM', label: 'Advisory firm' },
];
const businessModelOptions = [
  { value: 'B2B', label: 'B2B' },
  { value: 'HYBRID', label: 'Hybrid' },
  { value: 'B2C', label: 'B2C' },
];

const valuesOf = (tenant: Tenant): CompanyValues => ({
  Name: tenant.Name,
  Classification: tenant.Classification,
  BusinessModel: tenant.BusinessModel ?? '',
  Industry: tenant.Industry?.FreeForm ?? '',
  FriendlyName: tenant.FriendlyName ?? '',
  ClientWeeklyDay: tenant.ClientsPartner?.WeeklyDay?.toString() ?? '',
  ClientMonthlyDay: tenant.ClientsPartner?.MonthlyDay?.toString() ?? '',
});

/** The update: the industry keeps its NAICS code when the text is one of the list's titles. */
const requestOf = (
  values: CompanyForm,
  context: { industries: readonly Industry[]; clientDefaults: boolean },
): UpdateTenantRequest => {
  const chosen = context.industries.find((industry) => industry.Title === values.Industry);
  const body: UpdateTenantRequest = {
    Name: values.Name,
    Classification: values.Classification,
    BusinessModel: values.BusinessModel === '' ? null : values.BusinessModel,
    Industry: values.Industry
      ? {
          FreeForm: values.Industry,
          NAICS2017: chosen?.Code ?? null,
          Description: chosen?.Description ?? null,
        }
      : null,
    FriendlyName: values.FriendlyName || null,
  };
  // Client defaults live on the firm's partner; blank means no change.
  if (context.clientDefaults) {
    body.ClientsPartner = {
      ...(values.ClientWeeklyDay === undefined ? {} : { WeeklyDay: values.ClientWeeklyDay }),
      ...(values.ClientMonthlyDay === undefined ? {} : { MonthlyDay: values.ClientMonthlyDay }),
    };
  }
  return body;
};

type CompanySettingsFormProps = { tenant: Tenant; disabled: boolean };

/**
 * Company or firm settings (portal.md section 2.3): name, classification, business model, industry,
 * the firm's display name for client reports and its client defaults (report days of new clients).
 */
export const CompanySettingsForm = ({ tenant, disabled }: CompanySettingsFormProps) => {
  const updateTenant = useUpdateTenant();
  const industries = useIndustries('NAICS2017');
  const form = useForm({ resolver: zodResolver(CompanyForm), defaultValues: valuesOf(tenant) });
  const [success, setSuccess] = useTimedMessage();
  const isFirm = useWatch({ control: form.control, name: 'Classification' }) === 'FIRM';
  const clientDefaults = isFirm && tenant.ClientsPartner !== null;
  const serverErrors = useServerErrors(form, {
    failure: companyMessages.updateFailed,
    // The catalogue's failure text shows even when the server's errors sit on fields.
    alwaysSayFailure: true,
    shownFields: [
      'Name',
      'Classification',
      'BusinessModel',
      'Industry',
      ...(isFirm ? ['FriendlyName' as const] : []),
      ...(clientDefaults ? ['ClientWeeklyDay' as const, 'ClientMonthlyDay' as const] : []),
    ],
    aliases: {
      'Industry.FreeForm': 'Industry',
      'ClientsPartner.WeeklyDay': 'ClientWeeklyDay',
      'ClientsPartner.MonthlyDay': 'ClientMonthlyDay',
    },
  });

  const submit = form.handleSubmit(async (values) => {
    try {
      const body = requestOf(values, { industries: industries.data ?? [], clientDefaults });
      await updateTenant.mutateAsync({ tenantId: tenant.Id, body });
      setSuccess(companyMessages.updated);
    } catch (error) {
      serverErrors.show(error);
    }
  });

  return (
    <form
      noValidate
      onSubmit={(event) => {
        setSuccess(null);
        void submit(event);
      }}
      aria-label="Company settings"
    >
      <fieldset disabled={disabled} className="space-y-4">
        <SuccessCallout message={success} />
        <ErrorCallout message={serverErrors.message} />
        <FormTextField control={form.control} name="Name" label="Name" />
        <FormSelectField
          control={form.control}
          name="Classification"
          label="Classification"
          options={classificationOptions}
        />
        <FormSelectField
          control={form.control}
          name="BusinessModel"
          label="Business model"
          options={businessModelOptions}
          blankLabel=""
        />
        <FormIndustryField control={form.control} name="Industry" industries={industries.data ?? []} />
        {isFirm && (
          <FormTextField control={form.control} name="FriendlyName" label="Display name for client reports" />
        )}
        {clientDefaults && (
          <fieldset className="space-y-4 rounded-tremor-default border border-gray-200 p-3">
            <legend className="px-1 text-sm font-medium text-gray-700">Client defaults</legend>
            <FormSelectField
              control={form.control}
              name="ClientWeeklyDay"
              label="Weekly report day of new clients"
              options={weekdayOptions}
              blankLabel="No change"
            />
            <FormSelectField
              control={form.control}
              name="ClientMonthlyDay"
              label="Monthly report day of new clients"
              options={monthDayOptions}
              blankLabel="No change"
            />
          </fieldset>
        )}
        <Button type="submit" loading={form.formState.isSubmitting}>
          Save company
        </Button>
      </fieldset>
    </form>
  );
};
