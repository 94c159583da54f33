import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { defaultTimeZone } from '../../../../contracts/events/tenant';
import { z } from 'zod';
import { UpdateTenantRequest, type Tenant } from '../../../../contracts/api/tenants';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { useTimedMessage } from '../../components/use-timed-message';
import { FormCheckboxField, FormSelectField } from '../../forms/form-fields';
import { useServerErrors } from '../../forms/use-server-errors';
import { useUpdateTenant } from '../../api/queries/tenants';
import {
  companyMessages,
  currencyOptions,
  monthDayOptions,
  reportingWithDefaults,
  retentionOptions,
  timeZoneOptions,
  weekdayOptions,
} from './settings-rules';

/** portal.md section 9: the success text closes after 1.5 s. */
const successShownMs = 1_500;

const reporting = UpdateTenantRequest.shape.Settings.unwrap().shape.Reporting.unwrap().shape;
/** A select's value as the request's day number. */
const selectedDay = (day: z.ZodNumber) => z.string().transform(Number).pipe(day);

/**
 * The request's Settings.Reporting, every field sent; the form asks whether each email goes out, the
 * request whether it is disabled.
 */
const ReportingForm = z
  .object({
    WeeklyDay: selectedDay(reporting.WeeklyDay.unwrap()),
    MonthlyDay: selectedDay(reporting.MonthlyDay.unwrap()),
    Currency: reporting.Currency.unwrap(),
    RetentionPeriod: reporting.RetentionPeriod.unwrap(),
    TimeZone: reporting.TimeZone.unwrap(),
    WeeklyEmails: z.boolean(),
    MonthlyEmails: z.boolean(),
  })
  .transform(({ WeeklyEmails, MonthlyEmails, ...settings }) => ({
    ...settings,
    WeeklyEmailsDisabled: !WeeklyEmails,
    MonthlyEmailsDisabled: !MonthlyEmails,
  }));

const valuesOf = (tenant: Tenant): z.input<typeof ReportingForm> => {
  const settings = reportingWithDefaults(tenant.Settings.Reporting);
  return {
    WeeklyDay: String(settings.WeeklyDay),
    MonthlyDay: String(settings.MonthlyDay),
    Currency: settings.Currency,
    RetentionPeriod: settings.RetentionPeriod,
    TimeZone: settings.TimeZone ?? defaultTimeZone,
    WeeklyEmails: !settings.WeeklyEmailsDisabled,
    MonthlyEmails: !settings.MonthlyEmailsDisabled,
  };
};

/** Reporting settings: weekly and monthly days, currency, retention, and whether each email goes out. */
export const ReportingSettingsForm = ({ tenant, disabled }: { tenant: Tenant; disabled: boolean }) => {
  const updateTenant = useUpdateTenant();
  const zoneOptions = useMemo(() => timeZoneOptions(), []);
  const form = useForm({ resolver: zodResolver(ReportingForm), defaultValues: valuesOf(tenant) });
  const serverErrors = useServerErrors(form, {
    failure: companyMessages.reportingFailed,
    alwaysSayFailure: true,
    aliases: {
      'Settings.Reporting.WeeklyDay': 'WeeklyDay',
      'Settings.Reporting.MonthlyDay': 'MonthlyDay',
      'Settings.Reporting.Currency': 'Currency',
      'Settings.Reporting.RetentionPeriod': 'RetentionPeriod',
      'Settings.Reporting.TimeZone': 'TimeZone',
      'Settings.Reporting.WeeklyEmailsDisabled': 'WeeklyEmails',
      'Settings.Reporting.MonthlyEmailsDisabled': 'MonthlyEmails',
    },
  });
  const [success, setSuccess] = useTimedMessage(successShownMs);

  const submit = form.handleSubmit(async (settings) => {
    try {
      await updateTenant.mutateAsync({ tenantId: tenant.Id, body: { Settings: { Reporting: settings } } });
      setSuccess(companyMessages.reportingUpdated);
    } catch (error) {
      serverErrors.show(error);
    }
  });

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-label="Reporting settings">
      <fieldset disabled={disabled} className="space-y-4">
        <SuccessCallout message={success} />
        <ErrorCallout message={serverErrors.message} />
        <FormSelectField
          control={form.control}
          name="WeeklyDay"
          label="Weekly report day"
          options={weekdayOptions}
        />
        <FormSelectField
          control={form.control}
          name="MonthlyDay"
          label="Monthly report day"
          options={monthDayOptions}
        />
        <FormSelectField
          control={form.control}
          name="TimeZone"
          label="Time zone (reports are sent at 7:00)"
          options={zoneOptions}
        />
        <FormSelectField
          control={form.control}
          name="Currency"
          label="Display currency"
          options={currencyOptions}
        />
        <FormSelectField
          control={form.control}
          name="RetentionPeriod"
          label="Retention period"
          options={retentionOptions}
        />
        <FormCheckboxField control={form.control} name="WeeklyEmails" label="Send the weekly report emails" />
        <FormCheckboxField
          control={form.control}
          name="MonthlyEmails"
          label="Send the monthly report emails"
        />
        <Button type="submit" loading={form.formState.isSubmitting}>
          Save reporting settings
        </Button>
      </fieldset>
    </form>
  );
};
