import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow, TextInput } from '@tremor/react';
import {
  columnFilteringFeature,
  createFilteredRowModel,
  createPaginatedRowModel,
  createSortedRowModel,
  globalFilteringFeature,
  rowPaginationFeature,
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type FilterFn,
  type PaginationState,
  type RowData,
  type RowSelectionState,
  type SortFn,
  type SortingState,
} from '@tanstack/react-table';
import { Fragment, useId, useMemo, useState, type ReactNode } from 'react';
import { compareValues, type CellValue, type DataColumn } from './data-columns';
import { tableTexts } from './empty-texts';
import { TablePagination } from './table-pagination';

/** Tighter cells on narrow screens, so three columns and the row actions fit in 360 px. */
const cellPadding = 'px-2 sm:px-4';

const features = tableFeatures({
  rowSortingFeature,
  columnFilteringFeature,
  globalFilteringFeature,
  rowSelectionFeature,
  rowPaginationFeature,
  filteredRowModel: createFilteredRowModel(),
  sortedRowModel: createSortedRowModel(),
  paginatedRowModel: createPaginatedRowModel(),
});
type Features = typeof features;

/** The hidden first sort key that keeps some rows last whatever the chosen sort (Demo Client). */
const keepLastId = '__keepLast';
/** The hidden column the search box reads when the page gives `searchText`. */
const searchTextId = '__search';

export type TableSelection = {
  selected: string[];
  onChange: (ids: string[]) => void;
  canSelect?: (rowId: string) => boolean;
};

/**
 * Paging, sorting and search done by the server: `data` is the current page and the page owns the
 * state, the table shows it and reports the reader's changes (the search as typed, the page debounces).
 */
export type ServerSide = {
  /** Rows matching the search on every page. */
  rowCount: number;
  pageIndex: number;
  pageSize: number;
  sort: { id: string; desc: boolean };
  search: string;
  onPage: (pageIndex: number) => void;
  onSort: (sort: { id: string; desc: boolean }) => void;
  onSearch: (search: string) => void;
};

export type DataTableProps<T extends RowData> = {
  /** Names the table for screen readers (and the search field). */
  label: string;
  /** Undefined while loading. */
  data: readonly T[] | undefined;
  columns: DataColumn<T>[];
  getRowId: (row: T) => string;
  /** Shown when there are no rows at all. */
  emptyText?: string;
  /** Shown when rows exist but the search or `filtered` filters hide them all. */
  noMatchText?: string;
  /** The page's own filters are narrowing `data` (for the no-match text). */
  filtered?: boolean;
  /** A search box over the searchable columns. */
  searchLabel?: string;
  /** What the search looks in, instead of the searchable columns (a name with its email). */
  searchText?: (row: T) => string;
  /** More filter controls, shown in the filter bar. */
  filters?: ReactNode;
  /** Actions above the table (bulk edit for the selection, add). */
  toolbar?: ReactNode;
  initialSort?: { id: string; desc?: boolean };
  /** Rows kept at the end whatever the sort. */
  keepLast?: (row: T) => boolean;
  pageSize?: number;
  selection?: TableSelection;
  /** The last column: buttons or links for one row. */
  rowActions?: (row: T) => ReactNode;
  /** Names a row in the selection checkbox's label ("Select Acme"). */
  rowName?: (row: T) => string;
  /** The server pages, sorts and searches; `data` is one page. */
  server?: ServerSide;
  /** Expandable rows: what a row shows under itself when opened (a seller's archived reports). */
  expanded?: { render: (row: T) => ReactNode; label: (row: T) => string };
};

const sortFnOf =
  <T extends RowData>(value: (row: T) => CellValue): SortFn<Features, T> =>
  (a, b) =>
    compareValues(value(a.original), value(b.original));

const searchFn: FilterFn<Features, RowData> = (row, columnId, search: string) =>
  String(row.getValue(columnId) ?? '')
    .toLocaleLowerCase()
    .includes(search.trim().toLocaleLowerCase());

const ariaSortOf = (sorted: false | 'asc' | 'desc') =>
  sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none';

/**
 * The one table of the portal (Tremor's look, TanStack's models): sortable headers, a filter bar with
 * search, pagination, row selection, row actions, and the spec's Loading... and empty texts.
 */
export const DataTable = <T extends RowData>(props: DataTableProps<T>) => {
  const { data, columns, getRowId, selection, rowActions, keepLast, searchText, server, expanded } = props;
  const [openRows, setOpenRows] = useState<ReadonlySet<string>>(() => new Set());
  const toggleOpen = (rowId: string) =>
    setOpenRows((current) => {
      const next = new Set(current);
      if (!next.delete(rowId)) next.add(rowId);
      return next;
    });
  const searchId = useId();
  const [localSorting, setSorting] = useState<SortingState>(
    props.initialSort ? [{ id: props.initialSort.id, desc: props.initialSort.desc ?? false }] : [],
  );
  const [localSearch, setSearch] = useState('');
  const [localPagination, setPagination] = useState<PaginationState>({
    pageIndex: 0,
    pageSize: props.pageSize ?? 25,
  });
  const sorting = useMemo<SortingState>(
    () => (server ? [server.sort] : localSorting),
    [server, localSorting],
  );
  const search = server ? server.search : localSearch;
  const pagination = server ? { pageIndex: server.pageIndex, pageSize: server.pageSize } : localPagination;
  const rows = useMemo(() => (data ?? []) as T[], [data]);

  const columnDefs = useMemo(() => {
    const defs: ColumnDef<Features, T>[] = columns.map((column) => ({
      id: column.id,
      header: column.header,
      ...(column.value ? { accessorFn: (row: T) => column.value?.(row) } : {}),
      enableSorting: Boolean(column.sortable && column.value),
      // Every header sorts ascending first, numbers included (TanStack starts numbers descending).
      sortDescFirst: false,
      ...(column.value ? { sortFn: sortFnOf(column.value) } : {}),
    }));
    if (keepLast)
      defs.unshift({
        id: keepLastId,
        accessorFn: (row: T) => (keepLast(row) ? 1 : 0),
        sortFn: (a, b) => Number(keepLast(a.original)) - Number(keepLast(b.original)),
      });
    if (searchText) defs.push({ id: searchTextId, accessorFn: (row: T) => searchText(row) });
    return defs;
  }, [columns, keepLast, searchText]);

  const searchableIds = useMemo(
    () =>
      new Set(
        searchText
          ? [searchTextId]
          : columns.filter((column) => column.searchable && column.value).map((column) => column.id),
      ),
    [columns, searchText],
  );
  const rowSelection = useMemo<RowSelectionState>(
    () => Object.fromEntries((selection?.selected ?? []).map((id) => [id, true])),
    [selection?.selected],
  );
  const effectiveSorting = useMemo(
    () => (keepLast ? [{ id: keepLastId, desc: false }, ...sorting] : sorting),
    [keepLast, sorting],
  );

  const table = useTable({
    features,
    columns: columnDefs,
    data: rows,
    getRowId: (row) => getRowId(row),
    state: { sorting: effectiveSorting, globalFilter: search, pagination, rowSelection },
    onSortingChange: (updater) => {
      if (server) {
        const next = typeof updater === 'function' ? updater(sorting) : updater;
        if (next[0]) server.onSort({ id: next[0].id, desc: next[0].desc });
        return;
      }
      setSorting((current) => {
        const before = keepLast ? [{ id: keepLastId, desc: false }, ...current] : current;
        const next = typeof updater === 'function' ? updater(before) : updater;
        return next.filter((entry) => entry.id !== keepLastId);
      });
    },
    onPaginationChange: (updater) => {
      if (!server) return setPagination(updater);
      const next = typeof updater === 'function' ? updater(pagination) : updater;
      server.onPage(next.pageIndex);
    },
    ...(server ? { manualPagination: true, manualSorting: true, manualFiltering: true } : {}),
    ...(server ? { rowCount: server.rowCount } : {}),
    onRowSelectionChange: (updater) => {
      const next = typeof updater === 'function' ? updater(rowSelection) : updater;
      selection?.onChange(Object.keys(next).filter((id) => next[id]));
    },
    enableRowSelection: (row) => selection?.canSelect?.(row.id) ?? true,
    enableMultiSort: false,
    enableSortingRemoval: false,
    globalFilterFn: searchFn as FilterFn<Features, T>,
    getColumnCanGlobalFilter: (column) => searchableIds.has(column.id),
  });

  const visibleRows = table.getRowModel().rows;
  const filteredCount = server ? server.rowCount : table.getFilteredRowModel().rows.length;
  const loading = data === undefined;
  const noMatch = rows.length > 0 || props.filtered;
  const emptyText = loading
    ? tableTexts.loading
    : noMatch && (search.trim() !== '' || props.filtered)
      ? (props.noMatchText ?? tableTexts.noData)
      : (props.emptyText ?? tableTexts.noData);
  const shownColumns = columns.length + (selection ? 1 : 0) + (rowActions ? 1 : 0) + (expanded ? 1 : 0);
  const mobileHidden = (column: DataColumn<T>) => (column.hideOnMobile ? 'hidden sm:table-cell' : '');

  return (
    <div className="space-y-3">
      {(props.searchLabel || props.filters || props.toolbar) && (
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
          {props.searchLabel && (
            <div className="w-full sm:w-64">
              <label htmlFor={searchId} className="block text-sm font-medium text-gray-700">
                {props.searchLabel}
              </label>
              <TextInput
                id={searchId}
                type="search"
                value={search}
                placeholder=""
                onValueChange={(value: string) => {
                  if (server) return server.onSearch(value);
                  setSearch(value);
                  setPagination((current) => ({ ...current, pageIndex: 0 }));
                }}
              />
            </div>
          )}
          {props.filters}
          {props.toolbar && <div className="flex flex-wrap gap-2 sm:ml-auto">{props.toolbar}</div>}
        </div>
      )}
      <div className="max-h-[1000px] overflow-auto rounded-tremor-default border border-gray-200 bg-white">
        <Table aria-label={props.label}>
          <TableHead>
            <TableRow>
              {expanded && (
                <TableHeaderCell className="w-10">
                  <span className="sr-only">Details</span>
                </TableHeaderCell>
              )}
              {selection && (
                <TableHeaderCell className="w-10">
                  <input
                    type="checkbox"
                    aria-label={`Select all rows of ${props.label}`}
                    className="h-4 w-4 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
                    checked={visibleRows.length > 0 && table.getIsAllPageRowsSelected()}
                    ref={(box) => {
                      if (box) box.indeterminate = table.getIsSomeRowsSelected();
                    }}
                    onChange={table.getToggleAllPageRowsSelectedHandler()}
                  />
                </TableHeaderCell>
              )}
              {columns.map((column) => {
                const tableColumn = table.getColumn(column.id);
                const sorted = tableColumn?.getIsSorted() ?? false;
                const canSort = tableColumn?.getCanSort() ?? false;
                return (
                  <TableHeaderCell
                    key={column.id}
                    aria-sort={canSort ? ariaSortOf(sorted) : undefined}
                    className={`${cellPadding} ${mobileHidden(column)} ${column.align === 'end' ? 'text-right' : ''}`}
                  >
                    {canSort ? (
                      <button
                        type="button"
                        onClick={tableColumn?.getToggleSortingHandler()}
                        className="inline-flex items-center gap-1 rounded font-semibold focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
                      >
                        {column.header}
                        <span aria-hidden="true">
                          {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                        </span>
                      </button>
                    ) : (
                      column.header
                    )}
                  </TableHeaderCell>
                );
              })}
              {rowActions && (
                <TableHeaderCell className={cellPadding}>
                  <span className="sr-only">Actions</span>
                </TableHeaderCell>
              )}
            </TableRow>
          </TableHead>
          <TableBody>
            {visibleRows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={shownColumns} className="text-center">
                  <span role="status">{emptyText}</span>
                </TableCell>
              </TableRow>
            ) : (
              visibleRows.map((row) => (
                <Fragment key={row.id}>
                  <TableRow>
                    {expanded && (
                      <TableCell className="w-10">
                        <button
                          type="button"
                          aria-expanded={openRows.has(row.id)}
                          aria-label={expanded.label(row.original)}
                          onClick={() => toggleOpen(row.id)}
                          className="rounded px-1 text-gray-600 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
                        >
                          <span aria-hidden="true">{openRows.has(row.id) ? '▾' : '▸'}</span>
                        </button>
                      </TableCell>
                    )}
                    {selection && (
                      <TableCell>
                        <input
                          type="checkbox"
                          aria-label={`Select ${props.rowName?.(row.original) ?? row.id}`}
                          className="h-4 w-4 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
                          checked={row.getIsSelected()}
                          disabled={!row.getCanSelect()}
                          onChange={row.getToggleSelectedHandler()}
                        />
                      </TableCell>
                    )}
                    {columns.map((column) => (
                      <TableCell
                        key={column.id}
                        className={`whitespace-normal ${cellPadding} ${mobileHidden(column)} ${column.align === 'end' ? 'text-right' : ''}`}
                      >
                        {column.cell ? column.cell(row.original) : String(column.value?.(row.original) ?? '')}
                      </TableCell>
                    ))}
                    {rowActions && (
                      <TableCell className={`whitespace-normal ${cellPadding}`}>
                        {/* Stacked on narrow screens, so a row's actions fit beside its columns at 360 px. */}
                        <div className="flex flex-col items-end gap-2 sm:flex-row sm:flex-wrap sm:justify-end">
                          {rowActions(row.original)}
                        </div>
                      </TableCell>
                    )}
                  </TableRow>
                  {expanded && openRows.has(row.id) && (
                    <TableRow>
                      <TableCell colSpan={shownColumns} className="bg-gray-50 whitespace-normal">
                        {expanded.render(row.original)}
                      </TableCell>
                    </TableRow>
                  )}
                </Fragment>
              ))
            )}
          </TableBody>
        </Table>
      </div>
      <TablePagination
        pageIndex={pagination.pageIndex}
        pageCount={table.getPageCount()}
        rowCount={filteredCount}
        onPage={(pageIndex) =>
          server ? server.onPage(pageIndex) : setPagination((current) => ({ ...current, pageIndex }))
        }
      />
    </div>
  );
};
