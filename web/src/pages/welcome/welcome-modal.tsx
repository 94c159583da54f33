import { Button } from '@tremor/react';
import { useState, type FormEvent } from 'react';
import { isValidationError } from '../../api/api-error';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { formErrorsOf, hasUnshownErrors, validate, type FormErrors } from '../../forms/field-errors';
import { TextField } from '../../forms/text-field';
import { useAppServices } from '../../session/app-services-context';
import { switchToTenant } from '../../session/session-actions';
import { classificationOfPlan } from '../auth/sign-up-parameters';
import { IndustryField } from './industry-field';
import { useIndustries } from '../../api/queries/industries';
import { useCreateTenant } from '../../api/queries/tenants';
import { forgetPlanIdentifier, knownPlanIdentifier } from './plan-identifier-cookie';
import { WelcomeForm, canSubmitWelcome, welcomeRequestOf, type WelcomeValues } from './welcome-form';

const createFailed = 'There was an error while creating your company. Please try again.';
/** The request's fields this form shows errors against. */
const shownFields = ['Name', 'Industry', 'Industry.FreeForm', 'BusinessModel', 'Classification'];

const selectClasses =
  'w-full rounded-tremor-default border border-gray-300 bg-white px-3 py-2 text-sm shadow-tremor-input focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600';

const usageChoices = [
  { value: 'FIRM', label: 'Advising my clients' },
  { value: 'BUSINESS', label: 'Managing my company' },
] as const;

/**
 * The welcome modal (portal.md sections 2.3, 4 and 5): a user without a company creates their first.
 * The usage choice shows only when the sign-up plan does not already say it. It cannot be dismissed:
 * without a company there is nothing else to show.
 */
export const WelcomeModal = () => {
  const services = useAppServices();
  const createTenant = useCreateTenant();
  const industries = useIndustries();
  const [planIdentifier] = useState(knownPlanIdentifier);
  const [values, setValues] = useState<WelcomeValues>({
    Name: '',
    Industry: '',
    BusinessModel: '',
    Classification: classificationOfPlan(planIdentifier ?? undefined) ?? '',
  });
  const [errors, setErrors] = useState<FormErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const set = (field: keyof WelcomeValues) => (value: string) =>
    setValues((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmitWelcome(values, loading)) return;
    setMessage(null);
    const checked = validate(WelcomeForm, values);
    if ('errors' in checked) return setErrors(checked.errors);
    setErrors({});
    setLoading(true);
    try {
      const tenant = await createTenant.mutateAsync(
        welcomeRequestOf(checked.data, { industries: industries.data ?? [], planIdentifier }),
      );
      forgetPlanIdentifier();
      // The server made the user its ADMIN (and an advisor of a firm); the switch makes it current.
      await switchToTenant(services, {
        tenantId: tenant.Id,
        to: tenant.Classification === 'FIRM' ? '/advisor/overview' : '/overview',
      });
    } catch (error) {
      if (isValidationError(error) && Object.keys(error.properties).length > 0) {
        const fieldErrors = formErrorsOf(error.properties);
        setErrors({
          ...fieldErrors,
          Industry: fieldErrors['Industry.FreeForm'] ?? fieldErrors.Industry ?? '',
        });
        if (hasUnshownErrors(fieldErrors, shownFields)) setMessage(error.message);
      } else setMessage(error instanceof Error ? error.message : createFailed);
      setLoading(false);
    }
  };

  return (
    <ModalDialog open title="Welcome to Ledgerwise" width="welcome">
      <p className="text-sm text-gray-600">Tell us about your company to get started.</p>
      <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <ErrorCallout message={message} />
        <TextField
          name="Name"
          label="Company name"
          value={values.Name}
          onValueChange={set('Name')}
          error={errors.Name}
          autoComplete="organization"
          required
        />
        <IndustryField
          value={values.Industry}
          onValueChange={set('Industry')}
          industries={industries.data ?? []}
          error={errors.Industry || undefined}
        />
        <div className="space-y-1">
          <label htmlFor="field-BusinessModel" className="block text-sm font-medium text-gray-700">
            Business model
          </label>
          <select
            id="field-BusinessModel"
            name="BusinessModel"
            value={values.BusinessModel}
            onChange={(event) => set('BusinessModel')(event.target.value)}
            aria-invalid={errors.BusinessModel ? true : undefined}
            aria-describedby={errors.BusinessModel ? 'field-BusinessModel-error' : undefined}
            className={selectClasses}
          >
            <option value="">Choose...</option>
            <option value="B2B">B2B</option>
            <option value="HYBRID">Hybrid</option>
            <option value="B2C">B2C</option>
          </select>
          {errors.BusinessModel && (
            <p id="field-BusinessModel-error" className="text-sm text-red-600">
              {errors.BusinessModel}
            </p>
          )}
        </div>
        {planIdentifier === null && (
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-gray-700">How will you use Ledgerwise?</legend>
            {usageChoices.map((choice) => (
              <label key={choice.value} className="flex items-center gap-2 text-sm text-gray-800">
                <input
                  type="radio"
                  name="Classification"
                  value={choice.value}
                  checked={values.Classification === choice.value}
                  onChange={() => set('Classification')(choice.value)}
                  className="h-4 w-4 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
                />
                {choice.label}
              </label>
            ))}
            {errors.Classification && <p className="text-sm text-red-600">{errors.Classification}</p>}
          </fieldset>
        )}
        <Button
          type="submit"
          className="w-full"
          loading={loading}
          disabled={!canSubmitWelcome(values, loading)}
        >
          Let&apos;s go
        </Button>
      </form>
    </ModalDialog>
  );
};
