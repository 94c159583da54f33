import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import pino from 'pino';
import { Job } from '../../contracts/api/jobs';
import type { CredentialVault } from '../../commands/credential-vault';
import type { Config } from '../../contracts/config';
import { currentCollection } from '../../projections/framework/read-model-versions';
import {
  crmCompanyLinksProjection,
  type CrmCompanyLinkDoc,
} from '../../projections/integrations/crm-company-links-projection';
import { createCrmServices, crmConnectorFactories } from '../../workflows/integrations/crm-services';
import type { CrmConnectorFactories } from '../../workflows/integrations/crm/crm-connectors';
import { startIntegrationJobReactor } from '../../workflows/integrations/crm/integration-job-reactor';
import type { CrmPushActivities } from '../../workflows/integrations/crm/job-input';
import { createCrmPushActivities } from '../../workflows/integrations/crm/push/push-activities';
import { createIntegrationsWorker } from '../../workflows/integrations/worker';
import { ledgerDocId } from '../../workflows/ledger/ledger-collections';
import { platformAdmin } from '../gateway/fixtures';
import type { Browser, World } from '../gateway/gateway-world';

/**
 * The integration jobs' runtime as the worker process runs it (ADR 45, 46): the integrations worker
 * on the real Temporal server with the production connector factories and push activities, and the
 * reactor that starts the jobs the gateway records. `config` is read in beforeAll, after the test's
 * fake has set its URL. Also the helpers the provider job tests share.
 *
 * Options, for tests that look at one part only: `factories` in place of the production connectors
 * (a CRM fake's own connector), `push` in place of the production push activities (recording or
 * inert ones), and the reactor's `pageSize`.
 */
export const useIntegrationJobRuntime = (
  world: World,
  config: () => Config,
  options: {
    factories?: (config: Config) => CrmConnectorFactories;
    push?: CrmPushActivities;
    pageSize?: number;
  } = {},
) => {
  let nativeConnection: NativeConnection | undefined;
  let connection: Connection | undefined;
  let worker: Worker | undefined;
  let running: Promise<unknown> | undefined;
  let reactor: { stop: () => Promise<void> } | undefined;
  let admin: Browser | undefined;
  let vault: CredentialVault | undefined;

  beforeAll(async () => {
    const { services } = world;
    const crm = createCrmServices({
      db: services.db,
      writeSide: services.writeSide,
      config: config(),
      now: () => new Date(),
      factories: (options.factories ?? crmConnectorFactories)(config()),
      debug: () => undefined,
    });
    vault = crm.vault;
    nativeConnection = await NativeConnection.connect({ address: config().TEMPORAL_ADDRESS });
    connection = await Connection.connect({ address: config().TEMPORAL_ADDRESS });
    const client = new Client({ connection, namespace: config().TEMPORAL_NAMESPACE });
    worker = await createIntegrationsWorker({
      connection: nativeConnection,
      config: config(),
      deps: {
        db: services.db,
        writeSide: services.writeSide,
        vault: crm.vault,
        now: () => new Date(),
        connectors: crm.connectors,
      },
      push:
        options.push ??
        createCrmPushActivities({
          db: services.db,
          writeSide: services.writeSide,
          now: () => new Date(),
          connectorFor: crm.connectors.connectorFor,
          companyOwners: crm.companyOwners,
        }),
    });
    running = worker.run();
    reactor = startIntegrationJobReactor({
      writeSide: services.writeSide,
      db: services.db,
      client,
      config: config(),
      logger: pino({ level: 'silent' }),
      pageSize: options.pageSize ?? 25,
    });
    admin = (await platformAdmin(world)).browser;
  });

  afterAll(async () => {
    await reactor?.stop();
    worker?.shutdown();
    await running;
    await connection?.close();
    await nativeConnection?.close();
  });

  const signedInAdmin = (): Browser => {
    if (!admin) throw new Error('the runtime is not started: call this inside a test');
    return admin;
  };

  /** The vault the worker reads credentials from, to seal a connected account's tokens. */
  const workerVault = (): CredentialVault => {
    if (!vault) throw new Error('the runtime is not started: call this inside a test or a later hook');
    return vault;
  };

  /** Requests a sync, purge or unlink as a platform admin and waits for its job to finish. */
  const runJob = async (action: 'sync' | 'purge' | 'unlink', integrationId: number, body?: unknown) => {
    const response = await signedInAdmin().post(`/api/integrations/${integrationId}/${action}`, body);
    expect(response.statusCode).toBe(200);
    const { jobId } = response.json<{ jobId: number }>();
    for (let attempt = 0; attempt < 600; attempt += 1) {
      await world.settle();
      const job = Job.parse((await signedInAdmin().get(`/api/jobs/${jobId}`)).json());
      if (job.Status !== 'created' && job.Status !== 'running') return job;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`the ${action} job never finished`);
  };

  /** The account's links to customers, by customer id. */
  const linksOf = async (integrationId: number) => {
    await world.settle();
    const links = await currentCollection<'links', CrmCompanyLinkDoc>(
      world.services.db,
      crmCompanyLinksProjection,
      'links',
    );
    return (await links.find({ integrationId }).toArray())
      .map(({ customerId, crmId, method }) => ({ customerId, crmId, method }))
      .sort((a, b) => a.customerId.localeCompare(b.customerId));
  };

  return { admin: signedInAdmin, vault: workerVault, runJob, linksOf };
};

/** A ledger customer row as a sync stores it, for the matching to find. */
export const ledgerCustomer = (
  tenantId: number,
  sellerId: number,
  customerId: number,
  name: string,
  providerId: string,
) => ({
  _id: ledgerDocId(sellerId, providerId),
  sellerId,
  providerId,
  customerId,
  name,
  email: null,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  habit: null,
  tenantId,
  epoch: 1,
  hash: 'h',
  changedAt: new Date(),
});
