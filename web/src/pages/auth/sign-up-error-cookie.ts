import { z } from 'zod';
import { FieldErrors } from '../../../../contracts/errors';

/**
 * An error of a provider sign-up, left in a cookie for the register page to show against its fields
 * and then removed (portal.md section 2.3). A web-local shape: the gateway does not set it yet (it
 * redirects provider failures to /login?error=).
 */
const cookieName = 'lw_signup_error';
const SignUpErrorCookie = z.object({ message: z.string().optional(), properties: FieldErrors.optional() });
export type SignUpErrorCookie = z.infer<typeof SignUpErrorCookie>;

export const takeSignUpErrorCookie = (): SignUpErrorCookie | null => {
  const raw = document.cookie
    .split('; ')
    .find((part) => part.startsWith(`${cookieName}=`))
    ?.slice(cookieName.length + 1);
  if (raw === undefined) return null;
  document.cookie = `${cookieName}=; Max-Age=0; path=/`;
  try {
    const parsed = SignUpErrorCookie.safeParse(JSON.parse(decodeURIComponent(raw)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};
