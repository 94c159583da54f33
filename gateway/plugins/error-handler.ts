import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import {
  httpStatusOf,
  isAppError,
  type ErrorCode,
  type ErrorResponse,
  type FieldErrors,
} from '../../contracts/errors';

/** The catalogue's texts for failures that carry no message of their own (portal.md section 8). */
export const catalogue = {
  internal: "The operation failed. It's our fault, not yours. We're actively looking into the problem.",
  unavailable: 'The operation failed. Please try again.',
  invalid: 'The operation failed. Please validate your selection and try again.',
  notFound: 'Not Found',
} as const;

/** `body.Settings.Reporting.WeeklyDay` style keys, as the browser matches server field errors to fields. */
const fieldErrorsOf = (
  validation: { instancePath: string; message?: string; params: unknown }[],
): FieldErrors => {
  const properties: FieldErrors = {};
  for (const issue of validation) {
    const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    // params is the zod issue itself; an unrecognized_keys issue names the extra keys.
    const unknownKeys = (issue.params as { keys?: string[] }).keys;
    if (unknownKeys?.length) {
      for (const key of unknownKeys) properties[path ? `${path}.${key}` : key] = 'unknown field';
    } else {
      properties[path || '(body)'] ??= issue.message ?? 'invalid';
    }
  }
  return properties;
};

/**
 * One error handler for the whole API: AppErrors keep their code, status and user text; schema failures
 * become 422 with field errors; anything unexpected is logged and answered with the catalogue's 500 text,
 * never with its internals.
 */
export const registerErrorHandler = (app: FastifyInstance): void => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const send = (status: number, body: ErrorResponse) => reply.code(status).send(body);

    if (isAppError(error)) {
      if (error.code === 'internal') request.log.error({ err: error }, 'internal error');
      return send(httpStatusOf[error.code], {
        message: error.code === 'internal' ? catalogue.internal : error.userMessage,
        code: error.code,
        ...(error.properties ? { properties: error.properties } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return send(422, {
        message: catalogue.invalid,
        code: 'validation',
        properties: fieldErrorsOf(error.validation),
      });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
      return send(500, { message: catalogue.internal, code: 'internal' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return send(status, {
        message: status === 503 ? catalogue.unavailable : catalogue.internal,
        code: status === 503 ? 'unavailable' : 'internal',
      });
    }
    // Fastify's and its plugins' client errors (400 malformed JSON, 403 CSRF, 413 body too large,
    // 415 media type, 429 rate limit): their messages are safe to show.
    const code =
      (Object.keys(httpStatusOf) as ErrorCode[]).find((c) => httpStatusOf[c] === status) ?? 'validation';
    return send(status === 400 ? 422 : status, { message: error.message, code });
  });
};
