import type { ErrorCode, FieldErrors } from '../../../contracts/errors';

/** A failed API call: `message` is safe to show (the server's text or the catalogue's). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | null;
  /** The text the server sent, when it sent one (some screens prefer it to their own). */
  readonly serverText: string | null;

  constructor(
    message: string,
    options: { status: number; code?: ErrorCode | null; serverText?: string | null },
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code ?? null;
    this.serverText = options.serverText ?? null;
  }
}

/** A 422: `properties` maps field names to the server's error for that field (shown against the field). */
export class ValidationError extends ApiError {
  readonly properties: FieldErrors;

  constructor(message: string, properties: FieldErrors) {
    super(message, { status: 422, code: 'validation', serverText: message });
    this.name = 'ValidationError';
    this.properties = properties;
  }
}

/** The request never got an answer (offline, DNS, connection reset). */
export class NetworkError extends ApiError {
  constructor(message: string) {
    super(message, { status: 0 });
    this.name = 'NetworkError';
  }
}

export const isValidationError = (error: unknown): error is ValidationError =>
  error instanceof ValidationError;
