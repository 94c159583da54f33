import type { ZodType } from 'zod';
import { ErrorResponse } from '../../../contracts/errors';
import { ApiError, NetworkError, ValidationError } from './api-error';
import { CsrfToken } from './csrf-token';
import { errorCatalogue } from './error-catalogue';
import { retryDelayMs } from './retry-policy';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type RequestOptions<T> = {
  method?: HttpMethod;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** Parses the answer; without one the body is returned as it came. */
  schema?: ZodType<T>;
  /**
   * 401 and 403 end the session (reason Access Denied) unless the caller handles them itself: the
   * login form shows its own texts, and the session probe treats 401 as "not signed in".
   */
  authFailure?: 'logout' | 'throw';
  headers?: Record<string, string>;
};

export type ApiClientOptions = {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Called once per refused call; the app logs the user out with reason Access Denied. */
  onAccessDenied?: () => void;
  /** Fetch failures and server faults go to error reporting. */
  onReport?: (error: unknown, context: { path: string }) => void;
  newIdempotencyKey?: () => string;
};

const writes = new Set<HttpMethod>(['POST', 'PUT', 'PATCH', 'DELETE']);
const invalidResponse = 'Invalid response data.';

const urlOf = (path: string, query: RequestOptions<unknown>['query']): string => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
};

const readJson = async (response: Response): Promise<unknown> => {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return Symbol.for('unparseable');
  }
};

const isCsrfRefusal = (status: number, body: ErrorResponse | null) =>
  status === 403 && body !== null && /csrf/i.test(body.message);

/** The error a failed answer becomes, with the catalogue's text where the server gave none (portal.md 7, 8). */
export const errorOfResponse = (status: number, body: unknown): ApiError => {
  const parsed = ErrorResponse.safeParse(body);
  const problem = parsed.success ? parsed.data : null;
  const loose = body as { message?: unknown; error?: unknown } | null | undefined;
  const serverText =
    problem?.message ??
    (typeof loose?.message === 'string' ? loose.message : undefined) ??
    (typeof loose?.error === 'string' ? loose.error : undefined);
  if (status === 422)
    return new ValidationError(serverText ?? errorCatalogue.default, problem?.properties ?? {});
  if (status === 503) return new ApiError(errorCatalogue.unavailable, { status, code: 'unavailable' });
  // 5xx details are never the user's business; the server already hides them.
  if (status >= 500) return new ApiError(errorCatalogue.internal, { status, code: 'internal' });
  // A bare status text ("Conflict") tells a user nothing; the catalogue's default does.
  const message = serverText ?? errorCatalogue.default;
  return new ApiError(message, { status, code: problem?.code ?? null, serverText: serverText ?? null });
};

/**
 * The one way the web app talks to the API: credentials on every call, the anti-forgery token on every
 * write (refetched once when refused), an Idempotency-Key that makes retries harmless, retries with
 * backoff on 429, 501-504, and the spec's mapping of failures to messages.
 */
export class ApiClient {
  readonly csrf: CsrfToken;
  private readonly fetch: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly newIdempotencyKey: () => string;
  onAccessDenied: () => void;
  private readonly onReport: NonNullable<ApiClientOptions['onReport']>;

  constructor(options: ApiClientOptions = {}) {
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.newIdempotencyKey = options.newIdempotencyKey ?? (() => crypto.randomUUID());
    this.onAccessDenied = options.onAccessDenied ?? (() => undefined);
    this.onReport = options.onReport ?? (() => undefined);
    this.csrf = new CsrfToken(() => this.request('/api/auth/token', { authFailure: 'throw' }));
  }

  get<T>(path: string, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}): Promise<T> {
    return this.request(path, { ...options, method: 'GET' });
  }

  async request<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
    const method = options.method ?? 'GET';
    const isWrite = writes.has(method);
    const idempotencyKey = isWrite ? this.newIdempotencyKey() : null;
    let csrfRetried = false;

    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
      // A FormData body (the logo upload) sets its own multipart content type and boundary.
      const isForm = typeof FormData !== 'undefined' && options.body instanceof FormData;
      if (options.body !== undefined && !isForm) headers['content-type'] = 'application/json';
      if (isWrite) headers['x-csrf-token'] = await this.csrf.get();
      if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;

      let response: Response;
      try {
        response = await this.fetch(urlOf(path, options.query), {
          method,
          headers,
          credentials: 'include',
          body:
            options.body === undefined
              ? undefined
              : isForm
                ? (options.body as FormData)
                : JSON.stringify(options.body),
        });
      } catch (cause) {
        this.onReport(cause, { path });
        throw new NetworkError(errorCatalogue.failedFetch);
      }

      const body = await readJson(response);
      if (response.ok) {
        if (typeof body === 'symbol') throw new ApiError(invalidResponse, { status: response.status });
        if (!options.schema) return body as T;
        const parsed = options.schema.safeParse(body);
        if (parsed.success) return parsed.data;
        this.onReport(parsed.error, { path });
        throw new ApiError(invalidResponse, { status: response.status });
      }

      const wait = retryDelayMs({
        status: response.status,
        attempt,
        retryAfter: response.headers.get('retry-after'),
      });
      if (wait !== null) {
        await this.sleep(wait);
        continue;
      }

      const problem = ErrorResponse.safeParse(body);
      if (isWrite && !csrfRetried && isCsrfRefusal(response.status, problem.success ? problem.data : null)) {
        csrfRetried = true;
        this.csrf.forget();
        continue;
      }

      const error = errorOfResponse(response.status, typeof body === 'symbol' ? null : body);
      if ((response.status === 401 || response.status === 403) && options.authFailure !== 'throw') {
        this.onAccessDenied();
      }
      if (response.status >= 500) this.onReport(error, { path });
      throw error;
    }
  }
}
