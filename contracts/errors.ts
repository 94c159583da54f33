import { z } from 'zod';

/**
 * The closed set of error codes. Every error a caller can see carries one; the gateway maps it to an
 * HTTP status and a problem body, and the web app maps it back to a message from the spec's catalogue.
 */
export const ErrorCode = z.enum([
  'validation', // 422, with field errors in `properties`
  'unauthorized', // 401
  'forbidden', // 403
  'not_found', // 404
  'conflict', // 409: the current state forbids the command
  'stale', // 412: the caller's If-Match revision is out of date
  'rate_limited', // 429
  'unavailable', // 503
  'internal', // 500
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const httpStatusOf: Record<ErrorCode, number> = {
  validation: 422,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  stale: 412,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
};

/** Field errors as the browser expects them: `{ email: 'not_unique' }` or a message per field. */
export const FieldErrors = z.record(z.string(), z.string());
export type FieldErrors = z.infer<typeof FieldErrors>;

/** The body of every error response: `{ message, properties? }` (portal.md section 7). */
export const ErrorResponse = z.object({
  message: z.string(),
  code: ErrorCode,
  properties: FieldErrors.optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/**
 * The one error type of the codebase. `message` is for logs; `userMessage` is safe to show a user
 * (it is the spec's catalogue text where the spec gives one).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly userMessage: string;
  readonly properties: FieldErrors | undefined;

  constructor(
    code: ErrorCode,
    userMessage: string,
    options?: { message?: string; properties?: FieldErrors },
  ) {
    super(options?.message ?? userMessage);
    this.name = 'AppError';
    this.code = code;
    this.userMessage = userMessage;
    this.properties = options?.properties;
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;
