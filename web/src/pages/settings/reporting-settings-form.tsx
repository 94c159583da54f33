import { Button } from '@tremor/react';
import { useState, type FormEvent } from 'react';
import type { Tenant } from '../../../../contracts/api/tenants';
import type { Currency, ReportingSettings, RetentionPeriod } from '../../../../contracts/events/tenant';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { useTimedMessage } from '../../components/use-timed-message';
import { CheckboxField } from '../../forms/checkbox-field';
import { SelectField } from '../../forms/select-field';
import { useUpdateTenant } from '../../api/queries/tenants';
import {
  companyMessages,
  currencyOptions,
  monthDayOptions,
  reportingWithDefaults,
  retentionOptions,
  weekdayOptions,
} from './settings-rules';

/** portal.md section 9: the success text closes after 1.5 s. */
const successShownMs = 1_500;

/** Reporting settings: weekly and monthly days, currency, retention, and whether each email goes out. */
export const ReportingSettingsForm = ({ tenant, disabled }: { tenant: Tenant; disabled: boolean }) => {
  const updateTenant = useUpdateTenant();
  const [values, setValues] = useState<ReportingSettings>(() =>
    reportingWithDefaults(tenant.Settings.Reporting),
  );
  const [failure, setFailure] = useState<string | null>(null);
  const [success, setSuccess] = useTimedMessage(successShownMs);
  const [saving, setSaving] = useState(false);

  const set =
    <K extends keyof ReportingSettings>(field: K) =>
    (value: ReportingSettings[K]) =>
      setValues((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setSaving(true);
    try {
      await updateTenant.mutateAsync({ tenantId: tenant.Id, body: { Settings: { Reporting: values } } });
      setSuccess(companyMessages.reportingUpdated);
    } catch {
      setFailure(companyMessages.reportingFailed);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-label="Reporting settings">
      <fieldset disabled={disabled} className="space-y-4">
        <SuccessCallout message={success} />
        <ErrorCallout message={failure} />
        <SelectField
          name="WeeklyDay"
          label="Weekly report day"
          value={String(values.WeeklyDay)}
          onValueChange={(value) => set('WeeklyDay')(Number(value))}
          options={weekdayOptions}
        />
        <SelectField
          name="MonthlyDay"
          label="Monthly report day"
          value={String(values.MonthlyDay)}
          onValueChange={(value) => set('MonthlyDay')(Number(value))}
          options={monthDayOptions}
        />
        <SelectField
          name="Currency"
          label="Display currency"
          value={values.Currency}
          onValueChange={(value) => set('Currency')(value as Currency)}
          options={currencyOptions}
        />
        <SelectField
          name="RetentionPeriod"
          label="Retention period"
          value={values.RetentionPeriod}
          onValueChange={(value) => set('RetentionPeriod')(value as RetentionPeriod)}
          options={retentionOptions}
        />
        <CheckboxField
          name="WeeklyEmails"
          label="Send the weekly report emails"
          checked={!values.WeeklyEmailsDisabled}
          onCheckedChange={(checked) => set('WeeklyEmailsDisabled')(!checked)}
        />
        <CheckboxField
          name="MonthlyEmails"
          label="Send the monthly report emails"
          checked={!values.MonthlyEmailsDisabled}
          onCheckedChange={(checked) => set('MonthlyEmailsDisabled')(!checked)}
        />
        <Button type="submit" loading={saving}>
          Save reporting settings
        </Button>
      </fieldset>
    </form>
  );
};
