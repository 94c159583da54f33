import type { SellerSyncMode } from '../../contracts/events/seller';

/** What starts a sync (shared by the client, the workflow and its activities; no Node imports). */
export type SyncSellerInput = {
  sellerId: number;
  tenantId: number;
  mode: SellerSyncMode;
  /** The job (job- stream) that reports the sync; it is also the seller's syncId. */
  jobId: number;
  /** Update Demo Seller's only-fetch: bring the ledger up to date, generate no metrics. */
  onlyFetch: boolean;
  /** Fetch up to this instant (ISO); null means now. DEMO's "advance to today" passes a date. */
  until: string | null;
  /** The metrics queue, for the child workflow: workflow code cannot read the configuration. */
  metricsTaskQueue: string;
  pageSize: number;
};

/** What the first activity settled: the window to fetch and the ledger epoch to write. */
export type SyncPlan = { since: string | null; until: string; epoch: number };

export type SyncSellerResult = { records: number; pages: number; collectionDate: string; metrics: boolean };

export type SyncStepInput = SyncSellerInput & { workflowId: string };
