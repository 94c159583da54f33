import type { LedgerPage } from '../../contracts/ledger';

/**
 * What a sync needs from a platform: the records that changed in (since, until], a page at a time.
 * `since` null means everything (populate and repopulate). The cursor is opaque to the sync, which
 * keeps it in its heartbeat so a retried activity resumes at the page after the last one written.
 */
export type FetchPageRequest = {
  sellerId: number;
  since: Date | null;
  until: Date;
  cursor: string | null;
  pageSize: number;
};

export type FetchedPage = {
  page: LedgerPage;
  /** Null after the last page. */
  nextCursor: string | null;
  /** Coarse progress through the platform's data, for the job's progress events. */
  done: number;
  total: number;
};

export type LedgerConnector = { fetchPage: (request: FetchPageRequest) => Promise<FetchedPage> };
