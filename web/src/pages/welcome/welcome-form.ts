import { z } from 'zod';
import { CreateTenantRequest, tenantMessages } from '../../../../contracts/api/tenants';
import { BusinessModel, TenantClassification } from '../../../../contracts/events/tenant';
import type { Industry } from '../../../../contracts/industries';

/**
 * The welcome modal's fields (portal.md sections 2.3 and 5: Name, Industry and BusinessModel
 * required): the request's name rule; the industry typed as text, the choices not yet made blank.
 */
export const WelcomeForm = CreateTenantRequest.pick({ Name: true }).extend({
  Industry: z.string().trim().min(1, tenantMessages.industryRequired).max(200),
  BusinessModel: z.string().pipe(z.enum(BusinessModel.options, { error: 'Please select a business model' })),
  Classification: z
    .string()
    .pipe(z.enum(TenantClassification.options, { error: tenantMessages.classificationRequired })),
});
export type WelcomeForm = z.output<typeof WelcomeForm>;
export type WelcomeValues = z.input<typeof WelcomeForm>;

/** Let's go waits for a name and a classification (the rest is checked on submit). */
/** Takes the values as react-hook-form watches them: any field may still be missing. */
export const canSubmitWelcome = (values: Partial<WelcomeValues>, loading: boolean): boolean =>
  !loading && (values.Name ?? '').trim() !== '' && (values.Classification ?? '') !== '';

/** The request: the industry keeps its NAICS code when the text is one of the list's titles. */
export const welcomeRequestOf = (
  form: WelcomeForm,
  input: { industries: readonly Industry[]; planIdentifier: string | null },
): CreateTenantRequest => {
  const chosen = input.industries.find(
    (industry) => industry.Title.toLowerCase() === form.Industry.toLowerCase(),
  );
  return {
    Name: form.Name,
    Industry: {
      FreeForm: form.Industry,
      ...(chosen ? { NAICS2017: chosen.Code, Description: chosen.Description } : {}),
    },
    BusinessModel: form.BusinessModel,
    Classification: form.Classification,
    ...(input.planIdentifier ? { planIdentifier: input.planIdentifier } : {}),
  };
};
