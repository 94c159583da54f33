/**
 * The admin tables' search boxes: a case-insensitive "contains" match. The text is escaped, so what
 * the user types is never read as a regular expression. FerretDB has no text indexes or collation.
 */
/**
 * Control characters never occur in names or emails, and a NUL byte in a pattern makes the
 * Mongo-wire server fail (found by schemathesis): they are dropped from what is searched for.
 */
// eslint-disable-next-line no-control-regex
const printable = (text: string): string => text.replace(/[\u0000-\u001f\u007f]/g, '');

export const containsText = (text: string): RegExp =>
  new RegExp(
    printable(text)
      .trim()
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    'i',
  );

/** A search term that is a whole positive number also matches ids exactly. */
export const idInSearch = (text: string): number | null => {
  const trimmed = text.trim();
  return /^\d{1,15}$/.test(trimmed) && Number(trimmed) > 0 ? Number(trimmed) : null;
};

/** True when the search box holds something worth searching for. */
export const hasSearch = (text: string | undefined): text is string => (text?.trim() ?? '') !== '';
