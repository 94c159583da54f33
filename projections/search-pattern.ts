/**
 * The admin tables' search boxes: a case-insensitive "contains" match. The text is escaped, so what
 * the user types is never read as a regular expression. FerretDB has no text indexes or collation.
 */
export const containsText = (text: string): RegExp =>
  new RegExp(text.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');

/** A search term that is a whole positive number also matches ids exactly. */
export const idInSearch = (text: string): number | null => {
  const trimmed = text.trim();
  return /^\d{1,15}$/.test(trimmed) && Number(trimmed) > 0 ? Number(trimmed) : null;
};

/** True when the search box holds something worth searching for. */
export const hasSearch = (text: string | undefined): text is string => (text?.trim() ?? '') !== '';
