import { z } from 'zod';
import { LoginMethod } from '../../../contracts/auth';

/** Set by the gateway after a redirect sign-in (Google, Microsoft, an invitation); read once, then removed. */
const cookieName = 'lw_login';

const LoginCookie = z.object({
  csrfToken: z.string().optional(),
  method: LoginMethod.optional(),
  resetPasswordRequired: z.boolean().optional(),
});
export type LoginCookie = z.infer<typeof LoginCookie>;

export const takeLoginCookie = (): LoginCookie | null => {
  const raw = document.cookie
    .split('; ')
    .find((part) => part.startsWith(`${cookieName}=`))
    ?.slice(cookieName.length + 1);
  if (raw === undefined) return null;
  document.cookie = `${cookieName}=; Max-Age=0; path=/`;
  try {
    const parsed = LoginCookie.safeParse(JSON.parse(decodeURIComponent(raw)));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
};
