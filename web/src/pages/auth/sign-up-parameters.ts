import type { RegisterRequest } from '../../../../contracts/auth';

const prefilled = ['givenName', 'familyName', 'email'] as const;
const carried = ['referrer', 'referrerIdentifier', 'landingPage', 'planIdentifier'] as const;

type Prefill = Record<(typeof prefilled)[number], string>;
type Attribution = Partial<Record<(typeof carried)[number], string>>;

/** A query parameter's value; the literal text `undefined` (from careless marketing links) counts as absent. */
const valueOf = (search: URLSearchParams, name: string): string | undefined => {
  const value = search.get(name)?.trim();
  return value && value !== 'undefined' ? value : undefined;
};

/** The register page's query parameters: some prefill the form, the rest travel with the sign-up. */
export const signUpParameters = (search: URLSearchParams): { prefill: Prefill; attribution: Attribution } => {
  const prefill = Object.fromEntries(prefilled.map((name) => [name, valueOf(search, name) ?? ''])) as Prefill;
  const attribution: Attribution = {};
  for (const name of carried) {
    const value = valueOf(search, name);
    if (value !== undefined) attribution[name] = value;
  }
  return { prefill, attribution };
};

/** portal.md section 9: plans ending _business, or free, lite, plus, max are for a business; others for a firm. */
export const classificationOfPlan = (
  planIdentifier: string | undefined,
): RegisterRequest['classification'] => {
  if (!planIdentifier) return undefined;
  const plan = planIdentifier.toLowerCase();
  return plan.endsWith('_business') || ['free', 'lite', 'plus', 'max'].includes(plan) ? 'BUSINESS' : 'FIRM';
};
