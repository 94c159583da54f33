import { z } from 'zod';
import { tenantMessages, type CreateTenantRequest } from '../../../../contracts/api/tenants';
import type { Industry } from '../../../../contracts/industries';

/** The welcome modal's fields (portal.md sections 2.3 and 5: Name, Industry and BusinessModel required). */
export const WelcomeForm = z.object({
  Name: z.string().trim().min(1, 'Please enter company name').max(200),
  Industry: z.string().trim().min(1, tenantMessages.industryRequired).max(200),
  BusinessModel: z.enum(['B2B', 'HYBRID', 'B2C'], { error: 'Please select a business model' }),
  Classification: z.enum(['BUSINESS', 'FIRM'], { error: tenantMessages.classificationRequired }),
});
export type WelcomeForm = z.infer<typeof WelcomeForm>;

export type WelcomeValues = {
  Name: string;
  Industry: string;
  BusinessModel: string;
  Classification: string;
};

/** Let's go waits for a name and a classification (the rest is checked on submit). */
export const canSubmitWelcome = (values: WelcomeValues, loading: boolean): boolean =>
  !loading && values.Name.trim() !== '' && values.Classification !== '';

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
