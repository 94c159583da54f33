import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import { failureReasonOf } from '../../failure-reason';
import type { IntegrationActivities } from './activities';
import type {
  CrmPushActivities,
  IntegrationCleanupInput,
  IntegrationJobInput,
  IntegrationStepInput,
} from './job-input';

/** Refusals of a decider and of the CRM (a reconnect needed) do not change on retry. */
const refusals = [
  'AppError:conflict',
  'AppError:not_found',
  'AppError:validation',
  'AppError:forbidden',
  'ConnectorAuthRevoked',
  'ConnectorNoCredentials',
  'ConnectorRateLimited',
  'ConnectorRefused',
  'NoConnector',
];

const short = {
  startToCloseTimeout: '1 minute',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumAttempts: 8,
    nonRetryableErrorTypes: refusals,
  },
} as const;

/** Long steps heartbeat after every page or record: a dead worker is noticed, the step resumes. */
const long = {
  startToCloseTimeout: '4 hours',
  heartbeatTimeout: '30 seconds',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 12,
    nonRetryableErrorTypes: refusals,
  },
} as const;

const {
  beginIntegrationJob,
  completeIntegrationSync,
  finishIntegrationJob,
  failIntegrationJob,
  dropCompanyLinks,
  cleanUpIntegration,
} = proxyActivities<IntegrationActivities>(short);
const { readCrmPages, matchCrmCompanies, addMissingInCrm, resolveCrmOwners } =
  proxyActivities<IntegrationActivities>(long);
const { pushToCrm, purgeCrm, unlinkCrm } = proxyActivities<CrmPushActivities>(long);

const pushInput = (input: IntegrationJobInput) => ({
  integrationId: input.integrationId,
  tenantId: input.tenantId,
  jobId: input.jobId,
});

const runJob = async (
  input: IntegrationJobInput,
  work: (step: IntegrationStepInput) => Promise<Record<string, number>>,
  finish: (step: IntegrationStepInput & { result: Record<string, number> }) => Promise<void>,
): Promise<Record<string, number>> => {
  const step = { ...input, workflowId: workflowInfo().workflowId };
  try {
    const { crm } = await beginIntegrationJob(step);
    // A cloud account's sync records its date (Live Reports refresh after every seller sync, ADR 49);
    // there is nothing of ours in a cloud account for a purge or an unlink to take back here.
    const result = crm ? await work(step) : {};
    await finish({ ...step, result });
    return result;
  } catch (error) {
    await failIntegrationJob({ ...step, reason: failureReasonOf(error, `The ${input.action} failed.`) });
    throw error;
  }
};

/**
 * Sync of a CRM account (docs/adr/0045-crm-sync.md): read the CRM into the mirror, match the tenant's
 * customers, add what is missing when the settings say so, pick owners, push what the product knows,
 * then record the Sync Date.
 */
export async function syncIntegrationWorkflow(input: IntegrationJobInput): Promise<Record<string, number>> {
  return runJob(
    input,
    async (step) => {
      const read = await readCrmPages(step);
      const matched = await matchCrmCompanies(step);
      const added = await addMissingInCrm(step);
      const owners = await resolveCrmOwners(step);
      const pushed = await pushToCrm(pushInput(input));
      return {
        owners: read.owners,
        companies: read.companies,
        contacts: read.contacts,
        matched: matched.matched,
        linked: matched.linked,
        unlinked: matched.unlinked,
        ambiguous: matched.ambiguous,
        matchingMs: Math.round(matched.matchingMs),
        companiesAdded: added.companies,
        contactsAdded: added.contacts,
        ownersFromContacts: owners.fromContacts,
        pushed: pushed.pushed,
        skipped: pushed.skipped,
      };
    },
    completeIntegrationSync,
  );
}

/** Purge: removes what Ledgerwise made in the CRM; with unlink also the links to accounting customers. */
export async function purgeIntegrationWorkflow(input: IntegrationJobInput): Promise<Record<string, number>> {
  return runJob(
    input,
    async (step): Promise<Record<string, number>> => {
      const purged = await purgeCrm(pushInput(input));
      if (!input.unlink) return { removed: purged.removed };
      const unlinked = await unlinkCrm(pushInput(input));
      const dropped = await dropCompanyLinks(step);
      return { removed: purged.removed, unlinked: unlinked.unlinked, linksDropped: dropped.unlinked };
    },
    finishIntegrationJob,
  );
}

/** Unlink: clears the accounting identifiers Ledgerwise wrote, then drops the links. */
export async function unlinkIntegrationWorkflow(input: IntegrationJobInput): Promise<Record<string, number>> {
  return runJob(
    input,
    async (step) => {
      const unlinked = await unlinkCrm(pushInput(input));
      const dropped = await dropCompanyLinks(step);
      return { unlinked: unlinked.unlinked, linksDropped: dropped.unlinked };
    },
    finishIntegrationJob,
  );
}

/** Disconnect and delete: the account's secrets and, once deleted, its mirror go. */
export async function cleanUpIntegrationWorkflow(
  input: IntegrationCleanupInput,
): Promise<{ secrets: number }> {
  return cleanUpIntegration(input);
}
