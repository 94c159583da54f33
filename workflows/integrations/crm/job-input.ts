/** What an integration job's workflow and its activities take (docs/adr/0045-crm-sync.md). */
export type IntegrationJobAction = 'sync' | 'purge' | 'unlink';

export type IntegrationJobInput = {
  integrationId: number;
  tenantId: number;
  jobId: number;
  action: IntegrationJobAction;
  /** Purge only: also drop the links to accounting customers. */
  unlink: boolean;
  /** Records per CRM read (HubSpot lists at most 100). */
  pageSize: number;
};

/** An activity's input: the job and the run, whose id keys the commands it issues. */
export type IntegrationStepInput = IntegrationJobInput & { workflowId: string };

/** The contract with helper "push" (workflows/integrations/crm/push/push-activities.ts). */
export type CrmPushJobInput = { integrationId: number; tenantId: number; jobId: number };
export type CrmPushActivities = {
  pushToCrm: (input: CrmPushJobInput) => Promise<{ pushed: number; skipped: number }>;
  purgeCrm: (input: CrmPushJobInput) => Promise<{ removed: number }>;
  unlinkCrm: (input: CrmPushJobInput) => Promise<{ unlinked: number }>;
};

/** Disconnect and delete clean up after the account's recorded change (no job: they are immediate). */
export type IntegrationCleanupInput = {
  integrationId: number;
  tenantId: number;
  change: 'disconnected' | 'deleted';
};
