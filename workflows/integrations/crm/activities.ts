import {
  fillActiveCampaignIds,
  fillTenantActiveCampaignId,
} from '../active-campaign/fill-active-campaign-ids';
import { createHash } from 'node:crypto';
import { activityInfo, cancellationSignal, CancelledFailure, heartbeat, log } from '@temporalio/activity';
import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../../commands/command-handler';
import type { CredentialVault } from '../../../commands/credential-vault';
import { IntegrationCompaniesMatched } from '../../../contracts/events/integration';
import { integrationStream, jobStream } from '../../../contracts/stream-ids';
import { integrationDecider } from '../../../domain/integration/integration-decider';
import type { RecordCrmPushes } from '../../../domain/integration/decide';
import { jobDecider } from '../../../domain/job/job-decider';
import { ledgerCollections, type LedgerDoc } from '../../ledger/ledger-collections';
import { readState, runSystemCommand, type SystemCommandContext } from '../../sync/system-commands';
import { throttledProgress } from '../../sync/throttled-progress';
import type { CrmCompany, CrmConnector, CrmContact, CrmPage } from './crm-connector';
import { crmKindOf, type CrmAccount, type CrmConnectors } from './crm-connectors';
import {
  crmMirrorCollections,
  deleteMirror,
  dropUnseen,
  ensureCrmMirrorIndexes,
  readMirror,
  writeMirrorPage,
  type MirrorScope,
} from './crm-mirror';
import type { IntegrationCleanupInput, IntegrationStepInput } from './job-input';
import { diffLinks, matchCompanies, nameMethodsOf, type CompanyLink } from './matching';

export type IntegrationActivityDeps = {
  db: Db;
  writeSide: CommandHandlerDeps;
  vault: CredentialVault;
  now: () => Date;
  connectors: Pick<CrmConnectors, 'accountOf' | 'connectorOf' | 'forgetTokens'>;
};

/** Links per IntegrationCompaniesMatched and pushes per IntegrationPushesApplied: events stay small. */
const EVENT_CHUNK = 1000;

type ReadStage = 'owners' | 'companies' | 'contacts' | 'done';
/** The read's heartbeat: where a retried attempt resumes (the cursor of the next page to read). */
type ReadCheckpoint = {
  stage: ReadStage;
  cursor: string | null;
  counts: { owners: number; companies: number; contacts: number };
};

const digest = (value: unknown) => createHash('sha1').update(JSON.stringify(value)).digest('base64url');

const chunks = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

const contextOf = (deps: IntegrationActivityDeps, input: IntegrationStepInput): SystemCommandContext => ({
  writeSide: deps.writeSide,
  workflowId: input.workflowId,
  tenantId: input.tenantId,
  process: `integration-${input.action}`,
});

/** The links the account's stream records, by seller (the events are the source of truth). */
export const recordedLinks = async (
  writeSide: CommandHandlerDeps,
  integrationId: number,
): Promise<Map<number, Map<string, CompanyLink>>> => {
  const bySeller = new Map<number, Map<string, CompanyLink>>();
  for (const event of await writeSide.store.readStream(integrationStream(integrationId))) {
    if (event.type !== 'IntegrationCompaniesMatched') continue;
    const { data } = IntegrationCompaniesMatched.parse({ type: event.type, data: event.data });
    const links = bySeller.get(data.sellerId) ?? new Map<string, CompanyLink>();
    for (const customerId of data.unlinked) links.delete(customerId);
    for (const link of data.linked) links.set(link.customerId, link);
    bySeller.set(data.sellerId, links);
  }
  return bySeller;
};

type CustomerRow = {
  sellerId: number;
  customerId: string;
  providerId: string;
  name: string;
  email: string | null;
};

/** Every seller's customers of the tenant: the integration is the tenant's, a customer id is a seller's. */
const tenantCustomers = async (db: Db, tenantId: number): Promise<Map<number, CustomerRow[]>> => {
  const rows = await db
    .collection<LedgerDoc<'customers'>>(ledgerCollections.customers)
    .find(
      { tenantId },
      { projection: { _id: 0, sellerId: 1, customerId: 1, providerId: 1, name: 1, email: 1 } },
    )
    .toArray();
  const bySeller = new Map<number, CustomerRow[]>();
  for (const doc of rows) {
    const row = { ...doc, customerId: String(doc.customerId) };
    const list = bySeller.get(row.sellerId);
    if (list) list.push(row);
    else bySeller.set(row.sellerId, [row]);
  }
  return bySeller;
};

const redactedContact = (contact: CrmContact) => ({
  crmId: contact.crmId,
  companies: contact.companyCrmIds,
  email: contact.email,
  owner: contact.ownerCrmId,
});

export const createIntegrationActivities = (deps: IntegrationActivityDeps) => {
  const recordMatches = async (
    input: IntegrationStepInput,
    sellerId: number,
    change: { linked: CompanyLink[]; unlinked: string[] },
  ) => {
    const context = contextOf(deps, input);
    // Unlinks first, in one event, then the links in chunks; each step's id names its content, so an
    // attempt retried after a crash skips what is recorded and records the rest.
    const parts = [
      ...(change.unlinked.length > 0 ? [{ linked: [], unlinked: change.unlinked }] : []),
      ...chunks(change.linked, EVENT_CHUNK).map((linked) => ({ linked, unlinked: [] as string[] })),
    ];
    for (const part of parts)
      await runSystemCommand(context, integrationDecider, {
        streamId: integrationStream(input.integrationId),
        step: `match:${sellerId}:${digest(part)}`,
        command: {
          type: 'RecordCompanyMatches',
          now: deps.now(),
          data: { sellerId, jobId: input.jobId, ...part },
        },
      });
  };

  const recordPushes = async (input: IntegrationStepInput, pushes: RecordCrmPushes['data']['pushes']) => {
    for (const part of chunks(pushes, EVENT_CHUNK))
      await runSystemCommand(contextOf(deps, input), integrationDecider, {
        streamId: integrationStream(input.integrationId),
        step: `pushes:${digest(part)}`,
        command: { type: 'RecordCrmPushes', now: deps.now(), data: { jobId: input.jobId, pushes: part } },
      });
  };

  const account = async (
    input: IntegrationStepInput,
  ): Promise<{ account: CrmAccount; connector: CrmConnector }> => {
    const found = await deps.connectors.accountOf(input.integrationId);
    return { account: found, connector: deps.connectors.connectorOf(found) };
  };

  return {
    /** Marks the job started; a sync checks the account can still be synced (it may have changed). */
    async beginIntegrationJob(input: IntegrationStepInput): Promise<{ provider: string; crm: boolean }> {
      const job = await readState(deps.writeSide, jobDecider, jobStream(input.jobId));
      if (job.status === 'none') throw new Error(`job ${input.jobId} is not known`);
      if (job.status === 'created')
        await runSystemCommand(contextOf(deps, input), jobDecider, {
          streamId: jobStream(input.jobId),
          step: 'start-job',
          command: { type: 'StartJob', now: deps.now(), data: {} },
        });
      deps.connectors.forgetTokens(input.integrationId);
      const account = await readState(
        deps.writeSide,
        integrationDecider,
        integrationStream(input.integrationId),
      );
      if (account.status !== 'known') throw new Error(`integration ${input.integrationId} is not known`);
      // Cloud accounts (Google, Microsoft, Workspace) have no CRM to read: their job only records itself.
      const crm = crmKindOf(account) !== null && account.settings !== null;
      if (crm) await ensureCrmMirrorIndexes(deps.db);
      return { provider: account.provider, crm };
    },

    /**
     * Reads owners, then companies, then contacts page by page into the mirror. The heartbeat carries
     * the stage and the next page's cursor, so an attempt after a crash resumes there; the next page is
     * fetched while this one is written. After a complete read, records the CRM no longer has go.
     */
    async readCrmPages(input: IntegrationStepInput): Promise<ReadCheckpoint['counts']> {
      const { account: crm, connector } = await account(input);
      const resumed = activityInfo().heartbeatDetails as ReadCheckpoint | undefined;
      const checkpoint: ReadCheckpoint = resumed ?? {
        stage: 'owners',
        cursor: null,
        counts: { owners: 0, companies: 0, contacts: 0 },
      };
      const progress = throttledProgress(contextOf(deps, input), { jobId: input.jobId, now: deps.now });
      const scope = (): MirrorScope => ({
        tenantId: input.tenantId,
        integrationId: input.integrationId,
        jobId: input.jobId,
        now: deps.now(),
      });
      const request = (cursor: string | null) => ({
        cursor,
        pageSize: input.pageSize,
        accountingIdentifier: crm.settings.AccountingIdentifier,
      });
      if (checkpoint.stage === 'owners') {
        const owners = await connector.readOwners();
        await writeMirrorPage(deps.db, scope(), { kind: 'owners', records: owners });
        Object.assign(checkpoint, { stage: 'companies', cursor: null });
        checkpoint.counts.owners = owners.length;
        heartbeat(checkpoint);
      }
      const readAll = async <R extends CrmCompany | CrmContact>(
        kind: 'companies' | 'contacts',
        read: (cursor: string | null) => Promise<CrmPage<R>>,
        debug: ((record: R) => Record<string, unknown>) | null,
      ) => {
        let next: Promise<CrmPage<R>> | null = read(checkpoint.cursor);
        while (next) {
          if (cancellationSignal().aborted) throw new CancelledFailure('the sync was cancelled');
          const page: CrmPage<R> = await next;
          next = page.nextCursor === null ? null : read(page.nextCursor);
          next?.catch(() => undefined);
          if (debug) for (const record of page.records) log.debug(`CRM ${kind} record`, debug(record));
          await writeMirrorPage(deps.db, scope(), { kind, records: page.records });
          // ActiveCampaign: the company found among its accounts, and the tenant's users among its
          // contacts, get their ActiveCampaignId (ADR 48), so the admin tables link to them.
          if (crm.provider === 'ACTIVE_CAMPAIGN') {
            // The job's own name: a retried page appends nothing twice.
            const fill = {
              db: deps.db,
              writeSide: deps.writeSide,
              workflowId: `integration-sync-${input.integrationId}-${input.jobId}`,
              now: deps.now,
            };
            if (kind === 'contacts')
              await fillActiveCampaignIds(fill, {
                tenantId: input.tenantId,
                contacts: page.records as readonly CrmContact[],
              });
            else
              await fillTenantActiveCampaignId(fill, {
                tenantId: input.tenantId,
                accounts: page.records as readonly CrmCompany[],
              });
          }
          checkpoint.counts[kind] += page.records.length;
          checkpoint.cursor = page.nextCursor;
          heartbeat(checkpoint);
          const done = checkpoint.counts[kind];
          // A provider's total can lag records added meanwhile: progress never claims more than all.
          await progress.record({
            stage: kind,
            done,
            total: page.total === null ? null : Math.max(done, page.total),
          });
        }
      };
      if (checkpoint.stage === 'companies') {
        await readAll(
          'companies',
          (cursor) => connector.readCompanies(request(cursor)),
          crm.settings.DebugCompanies || crm.settings.DebugAccountingIdentifier
            ? (company) =>
                crm.settings.DebugCompanies
                  ? { ...company }
                  : { crmId: company.crmId, accountingId: company.accountingId }
            : null,
        );
        Object.assign(checkpoint, { stage: 'contacts', cursor: null });
        heartbeat(checkpoint);
      }
      if (checkpoint.stage === 'contacts') {
        await readAll(
          'contacts',
          (cursor) => connector.readContacts(request(cursor)),
          crm.settings.DebugContacts ? redactedContact : null,
        );
        Object.assign(checkpoint, { stage: 'done', cursor: null });
        heartbeat(checkpoint);
      }
      for (const kind of ['owners', 'companies', 'contacts'] as const) await dropUnseen(deps.db, input, kind);
      return checkpoint.counts;
    },

    /**
     * Matches every seller's customers to the mirror's companies and records the change per seller.
     * Answers the figures the job's result shows and the benchmark times.
     */
    async matchCrmCompanies(input: IntegrationStepInput) {
      const crm = await deps.connectors.accountOf(input.integrationId);
      const started = performance.now();
      const [companies, customersBySeller, recorded] = await Promise.all([
        readMirror(deps.db, input.integrationId, 'companies'),
        tenantCustomers(deps.db, input.tenantId),
        recordedLinks(deps.writeSide, input.integrationId),
      ]);
      const loadedMs = performance.now() - started;
      const names = nameMethodsOf(crm.settings);
      const matchCompanyRows = companies.map((c) => ({
        crmId: c.crmId,
        name: c.name,
        accountingId: c.accountingId,
      }));
      let matchingMs = 0;
      const totals = { customers: 0, linked: 0, unlinked: 0, matched: 0, ambiguous: 0 };
      const sellers = new Set([...customersBySeller.keys(), ...recorded.keys()]);
      for (const sellerId of sellers) {
        const customers = customersBySeller.get(sellerId) ?? [];
        const previous = [...(recorded.get(sellerId)?.values() ?? [])];
        const matchStarted = performance.now();
        const result = matchCompanies({ customers, companies: matchCompanyRows, previous, names });
        const change = diffLinks(previous, result.links);
        matchingMs += performance.now() - matchStarted;
        if (crm.settings.DebugAccountingIdentifier)
          log.debug('CRM accounting identifier matches', {
            sellerId,
            property: crm.settings.AccountingIdentifier,
            byAccountingId: result.links.filter((l) => l.method === 'accountingId').length,
          });
        await recordMatches(input, sellerId, change);
        totals.customers += customers.length;
        totals.linked += change.linked.length;
        totals.unlinked += change.unlinked.length;
        totals.matched += result.links.length;
        totals.ambiguous += result.ambiguous;
        heartbeat();
      }
      await throttledProgress(contextOf(deps, input), { jobId: input.jobId, now: deps.now }).record({
        stage: 'matching',
        done: totals.customers,
        total: totals.customers,
      });
      return { ...totals, companies: companies.length, loadedMs, matchingMs };
    },

    /**
     * AddMissingCustomers: a CRM company for each customer still unlinked, linked as `created`;
     * AddMissingContacts: a contact for each linked customer whose email no contact of its company has.
     * Pushes are keyed by seller and customer, so a retried attempt makes nothing twice; the objects
     * are recorded as created, which a purge deletes.
     */
    async addMissingInCrm(input: IntegrationStepInput): Promise<{ companies: number; contacts: number }> {
      const { account: crm, connector } = await account(input);
      const { AddMissingCustomers, AddMissingContacts, AccountingIdentifier } = crm.settings;
      if (!AddMissingCustomers && !AddMissingContacts) return { companies: 0, contacts: 0 };
      const customersBySeller = await tenantCustomers(deps.db, input.tenantId);
      const recorded = await recordedLinks(deps.writeSide, input.integrationId);
      const made = { companies: 0, contacts: 0 };
      const progress = throttledProgress(contextOf(deps, input), { jobId: input.jobId, now: deps.now });
      if (AddMissingCustomers && connector.supports.has('createCompany'))
        for (const [sellerId, customers] of customersBySeller) {
          const links = recorded.get(sellerId) ?? new Map<string, CompanyLink>();
          const missing = customers.filter((customer) => !links.has(customer.customerId));
          const linked: CompanyLink[] = [];
          const pushes: RecordCrmPushes['data']['pushes'] = [];
          const createdCompanies: CrmCompany[] = [];
          for (const customer of missing) {
            if (cancellationSignal().aborted) throw new CancelledFailure('the sync was cancelled');
            const key = `company:${sellerId}:${customer.customerId}`;
            const result = await connector.push({
              kind: 'createCompany',
              key,
              name: customer.name,
              accountingId: customer.customerId,
              accountingIdentifier: AccountingIdentifier,
              ownerCrmId: null,
            });
            linked.push({ customerId: customer.customerId, crmId: result.crmId, method: 'created' });
            links.set(customer.customerId, linked[linked.length - 1] as CompanyLink);
            // Made under our key: ours to purge, even when a retried attempt found it already made.
            pushes.push({
              key,
              kind: 'createCompany',
              ...result,
              created: true,
              sellerId,
              customerId: customer.customerId,
            });
            createdCompanies.push({
              crmId: result.crmId,
              name: customer.name,
              accountingId: AccountingIdentifier ? customer.customerId : null,
              domain: null,
              ownerCrmId: null,
              updatedAt: deps.now().toISOString(),
            });
            heartbeat();
            await progress.record({ stage: 'adding companies', done: linked.length, total: missing.length });
          }
          await writeMirrorPage(
            deps.db,
            { ...input, now: deps.now() },
            { kind: 'companies', records: createdCompanies },
          );
          await recordPushes(input, pushes);
          await recordMatches(input, sellerId, { linked, unlinked: [] });
          made.companies += linked.length;
          recorded.set(sellerId, links);
        }
      if (AddMissingContacts && connector.supports.has('createContact')) {
        const contacts = await readMirror(deps.db, input.integrationId, 'contacts');
        const emailsByCompany = new Map<string, Set<string>>();
        for (const contact of contacts)
          for (const crmId of contact.companyCrmIds) {
            const emails = emailsByCompany.get(crmId) ?? new Set<string>();
            if (contact.email) emails.add(contact.email.toLowerCase());
            emailsByCompany.set(crmId, emails);
          }
        const pushes: RecordCrmPushes['data']['pushes'] = [];
        const createdContacts: CrmContact[] = [];
        for (const [sellerId, customers] of customersBySeller) {
          const links = recorded.get(sellerId);
          for (const customer of customers) {
            const link = links?.get(customer.customerId);
            const email = customer.email?.trim();
            if (!link || !email || emailsByCompany.get(link.crmId)?.has(email.toLowerCase())) continue;
            const key = `contact:${sellerId}:${customer.customerId}`;
            const result = await connector.push({
              kind: 'createContact',
              key,
              companyCrmId: link.crmId,
              email,
              firstName: null,
              lastName: customer.name,
            });
            pushes.push({
              key,
              kind: 'createContact',
              ...result,
              created: true,
              sellerId,
              customerId: customer.customerId,
            });
            createdContacts.push({
              crmId: result.crmId,
              companyCrmIds: [link.crmId],
              email,
              firstName: null,
              lastName: customer.name,
              ownerCrmId: null,
            });
            heartbeat();
            await progress.record({ stage: 'adding contacts', done: pushes.length, total: null });
          }
        }
        await writeMirrorPage(
          deps.db,
          { ...input, now: deps.now() },
          { kind: 'contacts', records: createdContacts },
        );
        await recordPushes(input, pushes);
        made.contacts = pushes.length;
      }
      return made;
    },

    /**
     * The owner pushes give a company's tasks and sales rep (`taskOwnerCrmId` on the mirror's company):
     * its own owner, or with UseContactForOwner and none of its own, the owner of its first contact
     * that has one.
     */
    async resolveCrmOwners(input: IntegrationStepInput): Promise<{ fromContacts: number }> {
      const crm = await deps.connectors.accountOf(input.integrationId);
      const companies = await readMirror(deps.db, input.integrationId, 'companies');
      const contactOwner = new Map<string, string>();
      if (crm.settings.UseContactForOwner)
        for (const contact of await readMirror(deps.db, input.integrationId, 'contacts'))
          for (const crmId of contact.companyCrmIds)
            if (contact.ownerCrmId && !contactOwner.has(crmId)) contactOwner.set(crmId, contact.ownerCrmId);
      let fromContacts = 0;
      const updates = companies.flatMap((company) => {
        const owner = company.ownerCrmId ?? contactOwner.get(company.crmId) ?? null;
        if (company.ownerCrmId === null && owner !== null) fromContacts += 1;
        const stored = (company as { taskOwnerCrmId?: string | null }).taskOwnerCrmId;
        return stored === owner
          ? []
          : [
              {
                updateOne: {
                  filter: { _id: company._id } as never,
                  update: { $set: { taskOwnerCrmId: owner } },
                },
              },
            ];
      });
      for (const part of chunks(updates, 5000))
        await deps.db.collection(crmMirrorCollections.companies).bulkWrite(part, { ordered: false });
      return { fromContacts };
    },

    /** Records the Sync Date and completes the job with what the sync did. */
    async completeIntegrationSync(input: IntegrationStepInput & { result: Record<string, number> }) {
      const context = contextOf(deps, input);
      const now = deps.now();
      await runSystemCommand(context, integrationDecider, {
        streamId: integrationStream(input.integrationId),
        step: 'complete-sync',
        command: { type: 'CompleteIntegrationSync', now, data: { jobId: input.jobId, syncDate: now } },
      });
      await runSystemCommand(context, jobDecider, {
        streamId: jobStream(input.jobId),
        step: 'complete-job',
        command: { type: 'CompleteJob', now, data: { result: input.result } },
      });
    },

    /**
     * After Unlink: the account's links to accounting customers are dropped (the CRM side is push's
     * unlinkCrm), one change per seller.
     */
    async dropCompanyLinks(input: IntegrationStepInput): Promise<{ unlinked: number }> {
      let unlinked = 0;
      for (const [sellerId, links] of await recordedLinks(deps.writeSide, input.integrationId)) {
        if (links.size === 0) continue;
        await recordMatches(input, sellerId, { linked: [], unlinked: [...links.keys()] });
        unlinked += links.size;
      }
      return { unlinked };
    },

    /** Purge and unlink: the account records the outcome, the job completes. */
    async finishIntegrationJob(input: IntegrationStepInput & { result: Record<string, number> }) {
      const context = contextOf(deps, input);
      const now = deps.now();
      if (input.action !== 'sync')
        await runSystemCommand(context, integrationDecider, {
          streamId: integrationStream(input.integrationId),
          step: 'finish-job',
          command: {
            type: 'FinishIntegrationJob',
            now,
            data: { jobId: input.jobId, action: input.action, outcome: 'completed', reason: null },
          },
        });
      await runSystemCommand(context, jobDecider, {
        streamId: jobStream(input.jobId),
        step: 'complete-job',
        command: { type: 'CompleteJob', now, data: { result: input.result } },
      });
    },

    /** A failed job ends the account's running sync (or records the purge/unlink outcome) and the job. */
    async failIntegrationJob(input: IntegrationStepInput & { reason: string }) {
      const context = contextOf(deps, input);
      const now = deps.now();
      const reason = input.reason.trim() || `The ${input.action} failed.`;
      const state = await readState(
        deps.writeSide,
        integrationDecider,
        integrationStream(input.integrationId),
      );
      if (state.status === 'known' && input.action === 'sync' && state.runningSyncJobId === input.jobId)
        await runSystemCommand(context, integrationDecider, {
          streamId: integrationStream(input.integrationId),
          step: 'fail-sync',
          command: { type: 'FailIntegrationSync', now, data: { jobId: input.jobId, reason } },
        });
      if (state.status === 'known' && input.action !== 'sync')
        await runSystemCommand(context, integrationDecider, {
          streamId: integrationStream(input.integrationId),
          step: 'finish-job-failed',
          command: {
            type: 'FinishIntegrationJob',
            now,
            data: { jobId: input.jobId, action: input.action, outcome: 'failed', reason },
          },
        });
      const job = await readState(deps.writeSide, jobDecider, jobStream(input.jobId));
      if (job.status !== 'none')
        await runSystemCommand(context, jobDecider, {
          streamId: jobStream(input.jobId),
          step: 'fail-job',
          command: { type: 'FailJob', now, data: { reason } },
        }).catch(() => undefined);
    },

    /**
     * Disconnect and delete (admin.md section 4): whatever secrets the account's stream ever named go
     * from the vault (the gateway removed them already; a reconnect since keeps its new one), and a
     * deleted account's mirror goes, which holds its customers' names and emails.
     */
    async cleanUpIntegration(input: IntegrationCleanupInput): Promise<{ secrets: number }> {
      const events = await deps.writeSide.store.readStream(integrationStream(input.integrationId));
      const state = await readState(
        deps.writeSide,
        integrationDecider,
        integrationStream(input.integrationId),
      );
      const keep =
        state.status === 'known' && state.credentialsStatus === 'VALID' ? state.credentialsRef : null;
      const refs = new Set<string>();
      for (const event of events) {
        const ref = (event.data as { credentialsRef?: unknown } | null)?.credentialsRef;
        if (typeof ref === 'string' && ref !== keep) refs.add(ref);
      }
      for (const ref of refs) await deps.vault.remove(ref);
      if (input.change === 'deleted') await deleteMirror(deps.db, { integrationId: input.integrationId });
      return { secrets: refs.size };
    },
  };
};

export type IntegrationActivities = ReturnType<typeof createIntegrationActivities>;
