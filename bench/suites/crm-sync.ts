/**
 * CRM sync of 100,000 companies and 300,000 contacts (issue 17): the syncIntegrationWorkflow on a real
 * Temporal worker reads the local HubSpot fake (its own process, rate limit lifted) through the
 * HubSpot connector into the CRM mirror, then matches a seller's 100,000 customers (half by accounting
 * identifier, the rest by cleaned names) and records the links. Beside it, measured in the same run
 * on the same data: a plain in-memory join (a Map by accounting id and one by lower-cased name), and
 * the HubSpot pages read without storing anything. The pushes are helper push's (their own figures):
 * here they are a no-op, so the sync's figures are reading, storing and matching.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { handleCommand } from '../../commands/command-handler';
import { openEventSource } from '../../commands/open-event-source';
import { integrationStream, jobStream } from '../../contracts/stream-ids';
import type { Actor } from '../../domain/actor';
import type { IntegrationCommand } from '../../domain/integration/decide';
import { integrationDecider } from '../../domain/integration/integration-decider';
import { jobDecider } from '../../domain/job/job-decider';
import { openReadStore } from '../../projections/read-store/open-read-store';
import { createCrmServices, crmConnectorFactories } from '../../workflows/integrations/crm-services';
import { integrationWorkflowId, startIntegrationJob } from '../../workflows/integrations/crm/client';
import { readMirror } from '../../workflows/integrations/crm/crm-mirror';
import type { CrmPage } from '../../workflows/integrations/crm/crm-connector';
import { matchCompanies, nameMethodsOf } from '../../workflows/integrations/crm/matching';
import type { syncIntegrationWorkflow } from '../../workflows/integrations/crm/workflows';
import { createIntegrationsWorker } from '../../workflows/integrations/worker';
import { ledgerCollections, ledgerDocId } from '../../workflows/ledger/ledger-collections';
import { defaultCrmSettings } from '../../contracts/events/integration';
import { benchConfig } from '../bench-config';
import type { BenchSuite } from '../harness';
import { measurePeakRss } from '../sync-bench-seller';
import { createCredentialVault } from '../../commands/credential-vault';

type FakeLine = {
  url: string;
  configValues: Record<string, string>;
  tokens: { accessToken: string; refreshToken: string; expiresIn: number };
};

/** The HubSpot fake in a process of its own, so its JSON work does not share the worker's event loop. */
const startFake = async (companies: number, contacts: number) => {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(__dirname, '..', '..', 'test', 'fakes', 'hubspot-fake.ts'),
      String(companies),
      String(contacts),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) throw new Error('the HubSpot fake did not start');
  return { fake: JSON.parse(first.value) as FakeLine, stop: () => child.kill('SIGTERM') };
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const platformAdmin: Actor = { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };

export const suite: BenchSuite = {
  name: 'crm-sync',
  description:
    'CRM sync of N HubSpot companies and M contacts (local fake, rate limit lifted) into the mirror, matched to N customers, beside a plain in-memory join',
  params: { companies: 100_000, contacts: 300_000, pageSize: 100 },
  run: async (params, { log }) => {
    const companies = params.companies ?? 100_000;
    const contacts = params.contacts ?? 300_000;
    const pageSize = params.pageSize ?? 100;
    log(`starting the HubSpot fake with ${companies} companies and ${contacts} contacts`);
    const { fake, stop } = await startFake(companies, contacts);
    const config = { ...benchConfig('crm-sync'), ...fake.configValues };
    Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });
    const readStore = await openReadStore(config);
    const { db } = readStore;
    const events = await openEventSource(config);
    const nativeConnection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
    const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
    const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
    const ids = { tenantId: 1, integrationId: 1, jobId: 1, sellerId: 1 };
    try {
      const vault = createCredentialVault({ db, masterSecret: config.SESSION_SECRET });
      const credentialsRef = await vault.store({
        tenantId: ids.tenantId,
        kind: 'oauth',
        secret: {
          accessToken: fake.tokens.accessToken,
          refreshToken: fake.tokens.refreshToken,
          expiresIn: String(fake.tokens.expiresIn),
          obtainedAt: new Date().toISOString(),
        },
      });
      const run = (step: string, command: IntegrationCommand) =>
        handleCommand(
          integrationDecider,
          { streamId: integrationStream(ids.integrationId), commandId: `bench-${step}`, command },
          events.writeSide,
        );
      const now = new Date();
      await run('connect', {
        type: 'ConnectIntegration',
        now,
        data: {
          integrationId: ids.integrationId,
          tenantId: ids.tenantId,
          provider: 'HUBSPOT',
          productIdentifier: null,
          authMethod: 'oauth2',
          credentialsRef,
          credentialsOwner: null,
          url: null,
          actor: platformAdmin,
          tenantIsDemo: false,
          planAllowsProvider: true,
        },
      });
      // The fake's generated companies carry `accounting_id` on every second one; names have legal forms.
      const settings = {
        ...defaultCrmSettings,
        AccountingIdentifier: 'accounting_id',
        MatchUsingNamesCleaned: true,
      };
      await run('settings', {
        type: 'UpdateIntegrationSettings',
        now,
        data: { settings, actor: platformAdmin },
      });
      await run('request', {
        type: 'RequestIntegrationSync',
        now,
        data: { jobId: ids.jobId, actor: platformAdmin },
      });
      const workflowId = integrationWorkflowId(config, { ...ids, action: 'sync' });
      await handleCommand(
        jobDecider,
        {
          streamId: jobStream(ids.jobId),
          commandId: 'bench-job',
          command: {
            type: 'CreateJob',
            now,
            data: {
              jobId: ids.jobId,
              kind: 'sync',
              tenantId: ids.tenantId,
              sellerId: null,
              parameters: { target: 'integration', integrationId: ids.integrationId, action: 'sync' },
              workflowId,
            },
          },
        },
        events.writeSide,
      );

      log(`seeding ${companies} customers of one seller (their names without the CRM's legal forms)`);
      const customers = Array.from({ length: companies }, (_, i) => {
        const providerId = `CUST-${String(i + 1).padStart(6, '0')}`;
        return {
          _id: ledgerDocId(ids.sellerId, providerId),
          sellerId: ids.sellerId,
          providerId,
          customerId: i + 1,
          name: `Generated Company ${i + 1}`,
          email: null,
          createdAt: now,
          habit: null,
          tenantId: ids.tenantId,
          epoch: 1,
          hash: 'bench',
          changedAt: now,
        };
      });
      for (let i = 0; i < customers.length; i += 5000)
        await db.collection(ledgerCollections.customers).insertMany(customers.slice(i, i + 5000) as never[]);

      const crm = createCrmServices({
        db,
        writeSide: events.writeSide,
        config,
        now: () => new Date(),
        factories: crmConnectorFactories(config),
        debug: () => undefined,
      });
      const noPushes = {
        pushToCrm: () => Promise.resolve({ pushed: 0, skipped: 0 }),
        purgeCrm: () => Promise.resolve({ removed: 0 }),
        unlinkCrm: () => Promise.resolve({ unlinked: 0 }),
      };
      const worker = await createIntegrationsWorker({
        connection: nativeConnection,
        config,
        deps: { db, writeSide: events.writeSide, vault, now: () => new Date(), connectors: crm.connectors },
        push: noPushes,
      });
      log('syncing (worker in this process)');
      const started = performance.now();
      const { result, peakMiB } = await measurePeakRss(() =>
        worker.runUntil(async () => {
          await startIntegrationJob(
            { client, config },
            { ...ids, action: 'sync', unlink: false, pageSize, workflowId },
          );
          return client.workflow.getHandle<typeof syncIntegrationWorkflow>(workflowId).result();
        }),
      );
      const syncSeconds = (performance.now() - started) / 1000;
      const records = (result.owners ?? 0) + (result.companies ?? 0) + (result.contacts ?? 0);
      log(
        `sync: ${records} records in ${syncSeconds.toFixed(1)} s (${(records / syncSeconds).toFixed(0)}/s), ` +
          `${result.matched} customers linked, matching ${result.matchingMs} ms in the activity, peak RSS ${peakMiB.toFixed(0)} MiB`,
      );

      log('read ceiling: the same pages through the HubSpot connector, storing nothing');
      const account = await crm.connectors.accountOf(ids.integrationId);
      const connector = crm.connectors.connectorOf(account);
      const readStarted = performance.now();
      let read = 0;
      for (const readPage of [connector.readCompanies, connector.readContacts]) {
        let cursor: string | null = null;
        do {
          const page: CrmPage<unknown> = await readPage({
            cursor,
            pageSize,
            accountingIdentifier: 'accounting_id',
          });
          read += page.records.length;
          cursor = page.nextCursor;
        } while (cursor !== null);
      }
      const readSeconds = (performance.now() - readStarted) / 1000;

      log('matching beside a plain join, three times each on the mirror and ledger data in memory');
      const mirror = await readMirror(db, ids.integrationId, 'companies');
      const companyRows = mirror.map((c) => ({ crmId: c.crmId, name: c.name, accountingId: c.accountingId }));
      const customerRows = customers.map((c) => ({
        customerId: String(c.customerId),
        providerId: c.providerId,
        name: c.name,
      }));
      const matchTimes: number[] = [];
      const joinTimes: number[] = [];
      let matched = 0;
      let joined = 0;
      for (let round = 0; round < 3; round += 1) {
        let t = performance.now();
        matched = matchCompanies({
          customers: customerRows,
          companies: companyRows,
          previous: [],
          names: nameMethodsOf(settings),
        }).links.length;
        matchTimes.push(performance.now() - t);
        t = performance.now();
        const byAccountingId = new Map<string, string>();
        const byName = new Map<string, string>();
        for (const company of companyRows) {
          if (company.accountingId) byAccountingId.set(company.accountingId, company.crmId);
          byName.set(company.name.toLowerCase(), company.crmId);
        }
        joined = 0;
        for (const customer of customerRows)
          if (byAccountingId.get(customer.providerId) ?? byName.get(customer.name.toLowerCase())) joined += 1;
        joinTimes.push(performance.now() - t);
      }
      const matchMs = median(matchTimes);
      const joinMs = median(joinTimes);
      log(
        `matching: ${matched} links in ${matchMs.toFixed(0)} ms; join: ${joined} pairs in ${joinMs.toFixed(0)} ms ` +
          '(the join misses names that differ by a legal form)',
      );
      return [
        {
          name: `matching ${companies} customers to ${companies} CRM companies (accounting id, exact, cleaned)`,
          unit: 'ms',
          value: matchMs,
          baseline: {
            name: 'plain in-memory join: Map by accounting id + by lower-cased name',
            value: joinMs,
          },
          higherIsBetter: false,
          target: { kind: 'ratio', op: '<=', value: 3, source: 'issue 17' },
        },
        {
          name: 'whole CRM sync (read, mirror, match, record links)',
          unit: 's',
          value: syncSeconds,
          baseline: { name: 'the plain in-memory join of the same data', value: joinMs / 1000 },
          higherIsBetter: false,
        },
        {
          name: 'CRM sync throughput (owners, companies, contacts)',
          unit: 'records/s',
          value: records / syncSeconds,
          baseline: {
            name: 'reading the same pages from the fake, storing nothing',
            value: read / readSeconds,
          },
          higherIsBetter: true,
        },
        {
          name: 'peak RSS during the sync',
          unit: 'MiB',
          value: peakMiB,
          baseline: { name: 'RSS after the run', value: process.memoryUsage().rss / 2 ** 20 },
          higherIsBetter: false,
        },
      ];
    } finally {
      stop();
      await connection.close();
      await nativeConnection.close();
      await events.close();
      await readStore.close();
    }
  },
};
