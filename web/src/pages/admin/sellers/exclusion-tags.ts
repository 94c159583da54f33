/** admin.md sections 3 and 5: exclusion tags are integer ids; duplicates are ignored. */
export const exclusionTagError = 'Only whole numbers (customer or product ids) can be added.';

/**
 * Adds what was typed (one id, or several separated by commas or spaces) to the tags: each must be a
 * positive whole number; ids already present are ignored. Nothing is added when any part is not one.
 */
export const addExclusionTags = (
  tags: readonly number[],
  typed: string,
): { tags: number[]; error: string | null } => {
  const parts = typed
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length === 0) return { tags: [...tags], error: null };
  if (parts.some((part) => !/^\d{1,10}$/.test(part) || Number(part) < 1 || Number(part) > 2 ** 31))
    return { tags: [...tags], error: exclusionTagError };
  const next = [...tags];
  for (const id of parts.map(Number)) if (!next.includes(id)) next.push(id);
  return { tags: next, error: null };
};

/** A flag value read from the server as a list of ids (anything else counts as none). */
export const idListOf = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((id): id is number => Number.isInteger(id) && (id as number) > 0) : [];
