import type { ReactNode } from 'react';

/** A sortable or searchable value of a row. */
export type CellValue = string | number | boolean | null | undefined;

/**
 * One column of a DataTable. Pages describe columns in these terms; the wrapper turns them into
 * TanStack column definitions, so no page depends on the table library's generics.
 */
export type DataColumn<T> = {
  id: string;
  header: string;
  /** The value sorted and searched on; also shown when there is no `cell`. */
  value?: (row: T) => CellValue;
  cell?: (row: T) => ReactNode;
  /** Sortable by its header (needs `value`). */
  sortable?: boolean;
  /** Included in the filter bar's search (needs `value`). */
  searchable?: boolean;
  /** Hidden on narrow screens (below 640 px) to keep the table usable at 360 px. */
  hideOnMobile?: boolean;
  align?: 'start' | 'end';
};

/** Text compare that puts empty values last in ascending order and ignores case and accents. */
export const compareValues = (a: CellValue, b: CellValue): number => {
  const emptyA = a === null || a === undefined || a === '';
  const emptyB = b === null || b === undefined || b === '';
  if (emptyA || emptyB) return emptyA === emptyB ? 0 : emptyA ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a).localeCompare(String(b), undefined, { sensitivity: 'base', numeric: true });
};

/** Case-insensitive "contains" over the searchable values of a row. */
export const matchesSearch = <T>(row: T, columns: DataColumn<T>[], search: string): boolean => {
  const needle = search.trim().toLocaleLowerCase();
  if (needle === '') return true;
  return columns.some(
    (column) =>
      column.searchable &&
      column.value &&
      String(column.value(row) ?? '')
        .toLocaleLowerCase()
        .includes(needle),
  );
};
