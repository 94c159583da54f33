/**
 * The plan of the sign-up link (portal.md section 9, plan identifier cookie): the register page keeps
 * it so the welcome modal, after the email is verified, still knows which plan the user came for.
 */
const cookieName = 'lw_plan_identifier';
const thirtyDays = 30 * 24 * 60 * 60;

export const rememberPlanIdentifier = (planIdentifier: string | undefined): void => {
  if (!planIdentifier) return;
  document.cookie = `${cookieName}=${encodeURIComponent(planIdentifier)}; Max-Age=${thirtyDays}; path=/; SameSite=Lax`;
};

export const knownPlanIdentifier = (): string | null => {
  const raw = document.cookie
    .split('; ')
    .find((part) => part.startsWith(`${cookieName}=`))
    ?.slice(cookieName.length + 1);
  const value = raw === undefined ? '' : decodeURIComponent(raw).trim();
  return value && value !== 'undefined' ? value : null;
};

export const forgetPlanIdentifier = (): void => {
  document.cookie = `${cookieName}=; Max-Age=0; path=/`;
};
