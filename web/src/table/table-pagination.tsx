import { Button } from '@tremor/react';

type TablePaginationProps = {
  pageIndex: number;
  pageCount: number;
  rowCount: number;
  onPage: (pageIndex: number) => void;
};

/** Previous and next page, with where the reader is; hidden when everything fits on one page. */
export const TablePagination = ({ pageIndex, pageCount, rowCount, onPage }: TablePaginationProps) => {
  if (pageCount <= 1) return null;
  return (
    <nav
      aria-label="Pages"
      className="flex flex-wrap items-center justify-between gap-2 text-sm text-gray-600"
    >
      <span>
        Page {pageIndex + 1} of {pageCount} ({rowCount} rows)
      </span>
      <div className="flex gap-2">
        <Button
          size="xs"
          variant="secondary"
          disabled={pageIndex === 0}
          onClick={() => onPage(pageIndex - 1)}
        >
          Previous page
        </Button>
        <Button
          size="xs"
          variant="secondary"
          disabled={pageIndex >= pageCount - 1}
          onClick={() => onPage(pageIndex + 1)}
        >
          Next page
        </Button>
      </div>
    </nav>
  );
};
