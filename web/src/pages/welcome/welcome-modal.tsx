import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useIndustries } from '../../api/queries/industries';
import { useCreateTenant } from '../../api/queries/tenants';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { FormSelectField, FormTextField } from '../../forms/form-fields';
import { serverTextOr, useServerErrors } from '../../forms/use-server-errors';
import { useAppServices } from '../../session/app-services-context';
import { switchToTenant } from '../../session/session-actions';
import { classificationOfPlan } from '../auth/sign-up-parameters';
import { FormIndustryField } from './industry-field';
import { forgetPlanIdentifier, knownPlanIdentifier } from './plan-identifier-cookie';
import { WelcomeForm, canSubmitWelcome, welcomeRequestOf } from './welcome-form';

const createFailed = 'There was an error while creating your company. Please try again.';

const businessModelOptions = [
  { value: 'B2B', label: 'B2B' },
  { value: 'HYBRID', label: 'Hybrid' },
  { value: 'B2C', label: 'B2C' },
];

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
  const form = useForm({
    resolver: zodResolver(WelcomeForm),
    defaultValues: {
      Name: '',
      Industry: '',
      BusinessModel: '',
      Classification: classificationOfPlan(planIdentifier ?? undefined) ?? '',
    },
  });
  const serverErrors = useServerErrors(form, {
    failure: serverTextOr(createFailed),
    // The usage choice is not on screen when the sign-up plan made it.
    shownFields: [
      'Name',
      'Industry',
      'BusinessModel',
      ...(planIdentifier === null ? ['Classification' as const] : []),
    ],
    aliases: { 'Industry.FreeForm': 'Industry' },
  });
  const loading = form.formState.isSubmitting || form.formState.isSubmitSuccessful;
  const canSubmit = canSubmitWelcome(useWatch({ control: form.control }), loading);

  const submit = form.handleSubmit(async (values) => {
    try {
      const tenant = await createTenant.mutateAsync(
        welcomeRequestOf(values, { industries: industries.data ?? [], planIdentifier }),
      );
      forgetPlanIdentifier();
      // The server made the user its ADMIN (and an advisor of a firm); the switch makes it current.
      await switchToTenant(services, {
        tenantId: tenant.Id,
        to: tenant.Classification === 'FIRM' ? '/advisor/overview' : '/overview',
      });
    } catch (error) {
      // The errors it sets also mark the submit as not successful, so Let's go is enabled again.
      serverErrors.show(error);
    }
  });

  return (
    <ModalDialog open title="Welcome to Ledgerwise" width="welcome">
      <p className="text-sm text-gray-600">Tell us about your company to get started.</p>
      <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <ErrorCallout message={serverErrors.message} />
        <FormTextField
          control={form.control}
          name="Name"
          label="Company name"
          autoComplete="organization"
          required
        />
        <FormIndustryField control={form.control} name="Industry" industries={industries.data ?? []} />
        <FormSelectField
          control={form.control}
          name="BusinessModel"
          label="Business model"
          options={businessModelOptions}
          blankLabel="Choose..."
        />
        {planIdentifier === null && (
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-gray-700">How will you use Ledgerwise?</legend>
            {usageChoices.map((choice) => (
              <label key={choice.value} className="flex items-center gap-2 text-sm text-gray-800">
                <input
                  type="radio"
                  value={choice.value}
                  {...form.register('Classification')}
                  className="h-4 w-4 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
                />
                {choice.label}
              </label>
            ))}
            {form.formState.errors.Classification && (
              <p className="text-sm text-red-600">{form.formState.errors.Classification.message}</p>
            )}
          </fieldset>
        )}
        <Button type="submit" className="w-full" loading={loading} disabled={!canSubmit}>
          Let&apos;s go
        </Button>
      </form>
    </ModalDialog>
  );
};
