import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import { ledgerCollections } from '../../workflows/ledger/ledger-collections';
import { startSellerSync } from '../../workflows/sync/client';
import type { syncSellerWorkflow } from '../../workflows/sync/workflows';
import { withReadStoreEnv } from '../harness/isolation';
import { childSays, killHard, useLedgerWorld } from '../workflows/ledger-world';
import {
  materializedCompany,
  startQuickBooksOnlineFake,
  type MaterializedCompany,
} from '../fakes/quickbooks-online-fake';
import { connectOAuthSeller, storedLedger, sumOf, usePlatformFake } from './connector-world';

jest.setTimeout(240_000);

const world = useLedgerWorld(__filename);
const { fake, workers } = usePlatformFake(world, startQuickBooksOnlineFake, {
  prepare: (started) => started.setRateLimit(null),
});

const spawnWorker = (): ChildProcess =>
  // node with tsx as a loader, so a SIGKILL stops the process doing the work.
  spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'connector-child-process.ts')], {
    env: {
      ...withReadStoreEnv(process.env, world.config),
      ...fake().configValues,
      DATA_DIR: world.dataDir,
      TEMPORAL_TASK_QUEUE_PREFIX: world.config.TEMPORAL_TASK_QUEUE_PREFIX,
      KAFKA_TOPIC_PREFIX: world.config.KAFKA_TOPIC_PREFIX,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });

/**
 * Waits until the Temporal server holds a heartbeat of the sync's pages activity past its first page:
 * only then is there a place to resume from (pages are written in groups, ADR 53, and heartbeats are
 * throttled, so the rows in the ledger can run ahead of what the server knows).
 */
const waitForRecordedCheckpoint = async (workflowId: string) => {
  const handle = world.client().workflow.getHandle(workflowId);
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const { raw } = await handle.describe();
    for (const activity of raw.pendingActivities ?? []) {
      const [payload] = activity.heartbeatDetails?.payloads ?? [];
      const details = payload ? defaultPayloadConverter.fromPayload<{ pages?: number }>(payload) : null;
      if ((details?.pages ?? 0) > 0) return details;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the sync never recorded a checkpoint');
};

describe('a sync worker killed during a QuickBooks Online populate', () => {
  const sellerId = 311;
  const tenantId = 32;
  const realmId = '4620816365';
  let company: MaterializedCompany;
  let child: ChildProcess | null = null;

  afterEach(async () => {
    if (child) await killHard(child);
  });

  it('resumes where it stopped, with no ledger row lost or duplicated', async () => {
    company = materializedCompany(realmId, { customers: 60, items: 8, invoices: 5000 });
    fake().addCompany(company);
    await connectOAuthSeller(world, {
      sellerId,
      tenantId,
      provider: 'QBO',
      companyName: 'Sandbox Company_US_2',
      secret: { ...fake().issueTokens(realmId), expiresIn: '3600', accountId: realmId },
    });
    const db = world.db();
    const total = company.tables.Invoice.records.size;

    // QuickBooks answers a query in a few hundred milliseconds; 40 ms here keeps the populate running
    // long enough for a throttled heartbeat (every 2 s at most) to record a place to resume from.
    fake().beforeAnswer(() => new Promise((resolve) => setTimeout(resolve, 40)));
    child = spawnWorker();
    await childSays(child, 'ready');
    const started = await startSellerSync(
      { sellerId, tenantId, mode: 'populate', jobId: 3101, onlyFetch: true, pageSize: 50 },
      world.temporal(),
    );
    const invoices = db.collection(ledgerCollections.invoices);
    let stored = 0;
    while (stored < total / 4) {
      await new Promise((r) => setTimeout(r, 100));
      stored = await invoices.countDocuments({ sellerId });
    }
    await waitForRecordedCheckpoint(started.workflowId);
    await killHard(child);
    child = null;
    expect(await invoices.countDocuments({ sellerId })).toBeLessThan(total);
    const requestsAtKill = fake().requests.length;

    fake().beforeAnswer(null);
    const result = await workers.run(() =>
      world.client().workflow.getHandle<typeof syncSellerWorkflow>(started.workflowId).result(),
    );
    expect(result.pages).toBeGreaterThan(1);
    // The resumed attempt went on from its heartbeat's cursor (the heartbeat may lag the writes): it
    // never started over, which counts the company's records first.
    const resumed = fake().requests.slice(requestsAtKill);
    expect(resumed.length).toBeGreaterThan(0);
    expect(resumed.some((r) => /COUNT\(\*\)/.test(r.query.query ?? ''))).toBe(false);

    const ledger = await storedLedger(db, sellerId);
    const expectedIds = [...company.tables.Invoice.records.keys()].sort();
    expect(ledger.invoices.map((r) => r.providerId).sort()).toEqual(expectedIds);
    expect(new Set(ledger.payments.map((r) => r.providerId)).size).toBe(company.tables.Payment.records.size);
    expect(ledger.payments).toHaveLength(company.tables.Payment.records.size);
    expect(sumOf(ledger.invoices, (r) => r.amount)).toBe(
      sumOf([...company.tables.Invoice.records.values()], (r) => Math.round(Number(r.TotalAmt) * 100)),
    );
  });
});
