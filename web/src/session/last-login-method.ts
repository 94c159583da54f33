import { LoginMethod } from '../../../contracts/auth';

const storageKey = 'ledgerwise.lastLoginMethod';

/** The login page reminds the user how they signed in last time on this browser. */
export const rememberLoginMethod = (method: LoginMethod | null): void => {
  if (method) window.localStorage.setItem(storageKey, method);
};

export const lastLoginMethod = (): LoginMethod | null => {
  const parsed = LoginMethod.safeParse(window.localStorage.getItem(storageKey));
  return parsed.success ? parsed.data : null;
};

export const loginMethodLabels: Record<LoginMethod, string> = {
  password: 'email and password',
  google: 'Google',
  microsoft: 'Microsoft',
};
