/** Keys whose values never belong in the audit history, whatever the write side let through. */
const SECRET_KEY =
  /pass(word|phrase)?|secret|token|credential|authori[sz]ation|api[-_]?key|cookie|private[-_]?key/i;

const MAX_DEPTH = 8;

/**
 * A second line of defence: the write side already strips secrets from request bodies, and the audit
 * history strips them again, so a missed field in one command cannot leak into an admin table.
 */
export const sanitiseBody = (body: unknown, depth = 0): unknown => {
  if (body === null || typeof body !== 'object') return body ?? null;
  if (depth >= MAX_DEPTH) return '[truncated]';
  if (Array.isArray(body)) return body.map((item) => sanitiseBody(item, depth + 1));
  const clean: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!SECRET_KEY.test(key)) clean[key] = sanitiseBody(value, depth + 1);
  }
  return clean;
};
