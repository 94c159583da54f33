import { ApiError, isValidationError } from '../../api/api-error';

/**
 * A failed connection as the modal shows it (portal.md section 8): the catalogue's text, then the
 * server's message and any resolution hint it gave in its properties.
 */
export const connectFailureOf = (
  error: unknown,
  catalogueText: string,
): { title: string; detail: string | null } => {
  if (!(error instanceof ApiError)) return { title: catalogueText, detail: null };
  const resolution = isValidationError(error) ? (error.properties.resolution ?? null) : null;
  const server = error.serverText && error.serverText !== catalogueText ? error.serverText : null;
  const detail = [server, resolution].filter(Boolean).join(' ');
  return { title: catalogueText, detail: detail || null };
};
