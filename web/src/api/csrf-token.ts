import { CsrfTokenResponse } from '../../../contracts/auth';

/**
 * The anti-forgery token every write echoes in `x-csrf-token`: fetched once and shared by concurrent
 * writes; forgotten on logout and after the server refuses it, so the next write fetches a new one.
 */
export class CsrfToken {
  private pending: Promise<string> | null = null;

  constructor(private readonly fetchToken: () => Promise<unknown>) {}

  get(): Promise<string> {
    this.pending ??= this.fetchToken()
      .then((body) => CsrfTokenResponse.parse(body).csrfToken)
      .catch((error: unknown) => {
        this.pending = null;
        throw error;
      });
    return this.pending;
  }

  /** A token handed over by the server another way (the login cookie after a redirect sign-in). */
  set(token: string): void {
    this.pending = Promise.resolve(token);
  }

  forget(): void {
    this.pending = null;
  }
}
