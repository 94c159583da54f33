import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createCredentialVault } from '../../commands/credential-vault';
import { handleCommand } from '../../commands/command-handler';
import type { Config } from '../../contracts/config';
import { sellerStream } from '../../contracts/stream-ids';
import { systemActor } from '../../domain/actor';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { ledgerCollections } from '../../workflows/ledger/ledger-collections';
import { startSellerSync } from '../../workflows/sync/client';
import type { syncSellerWorkflow } from '../../workflows/sync/workflows';
import { withReadStoreEnv } from '../harness/isolation';
import { childSays, killHard, useLedgerWorld } from '../workflows/ledger-world';
import { startXeroFake, xeroOrganisation, type XeroFake } from '../fakes/xero-fake';
import { sageKillCompany, startSageIntacctFake, type SageIntacctFake } from '../fakes/sage-intacct-fake';
import { startStripeFake, stripeAccount, type StripeFake } from '../fakes/stripe-fake';
import { connectOAuthSeller, connectorWorkers, storedLedger, sumOf } from './connector-world';

/**
 * Issue 16, per platform: a sync worker SIGKILLed mid-populate, for Xero, Sage Intacct and Stripe
 * (QuickBooks Online has its own file; Stripe through test/fakes/stripe-fake.ts, since stripe-mock's
 * fixed answers cannot be paged long enough to kill a worker inside). The run resumes on a fresh
 * worker and ends with every fixture record in the ledger exactly once and the ledger's figures
 * equal to the fixtures'.
 */
jest.setTimeout(300_000);

const world = useLedgerWorld(__filename);
let xero: XeroFake;
let sage: SageIntacctFake;
let stripe: StripeFake;
let config: Config;
const workers = connectorWorkers(world, () => config);

const sageFixture = sageKillCompany(10_000);

beforeAll(async () => {
  [xero, sage, stripe] = await Promise.all([
    startXeroFake(),
    startSageIntacctFake(sageFixture),
    startStripeFake(),
  ]);
  config = { ...world.config, ...xero.configValues, ...sage.configValues, ...stripe.configValues };
});

afterAll(async () => {
  await workers.close();
  await xero.close();
  await sage.close();
  await stripe.close();
});

const spawnWorker = (): ChildProcess =>
  spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'connector-child-process.ts')], {
    env: {
      ...withReadStoreEnv(process.env, world.config),
      ...xero.configValues,
      ...sage.configValues,
      ...stripe.configValues,
      DATA_DIR: world.dataDir,
      TEMPORAL_TASK_QUEUE_PREFIX: world.config.TEMPORAL_TASK_QUEUE_PREFIX,
      KAFKA_TOPIC_PREFIX: world.config.KAFKA_TOPIC_PREFIX,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });

/** Starts a populate on a worker process, kills it once a quarter of the invoices are stored, finishes on a fresh worker. */
const populateThroughAKill = async (seller: {
  sellerId: number;
  tenantId: number;
  jobId: number;
  total: number;
}) => {
  let child: ChildProcess | null = spawnWorker();
  try {
    await childSays(child, 'ready');
    const started = await startSellerSync(
      {
        sellerId: seller.sellerId,
        tenantId: seller.tenantId,
        mode: 'populate',
        jobId: seller.jobId,
        onlyFetch: true,
        pageSize: 100,
      },
      world.temporal(),
    );
    const invoices = world.db().collection(ledgerCollections.invoices);
    let stored = 0;
    while (stored < seller.total / 4) {
      await new Promise((r) => setTimeout(r, 50));
      stored = await invoices.countDocuments({ sellerId: seller.sellerId });
    }
    await killHard(child);
    child = null;
    const atKill = await invoices.countDocuments({ sellerId: seller.sellerId });
    expect(atKill).toBeLessThan(seller.total);
    const result = await workers.run(() =>
      world.client().workflow.getHandle<typeof syncSellerWorkflow>(started.workflowId).result(),
    );
    expect(result.pages).toBeGreaterThan(1);
    return storedLedger(world.db(), seller.sellerId);
  } finally {
    if (child) await killHard(child);
  }
};

const cents = (value: unknown) => Math.round(Number(value) * 100);

describe('a sync worker killed during a populate', () => {
  it('Xero: ends with every invoice and payment once and the organisation’s figures', async () => {
    const organisation = xeroOrganisation('Kill Test Ltd', {
      contacts: 40,
      items: 5,
      invoices: 8000,
      creditNotes: 10,
    });
    xero.addOrganisation(organisation);
    await connectOAuthSeller(world, {
      sellerId: 611,
      tenantId: 61,
      provider: 'XERO',
      companyName: 'Kill Test Ltd',
      secret: {
        ...xero.issueTokens([organisation.tenantId]),
        expiresIn: '1800',
        accountId: organisation.tenantId,
      },
    });
    const live = (r: Record<string, unknown>) => !['DELETED', 'VOIDED'].includes(String(r.Status));
    const invoices = [...organisation.records.Invoices.values()].filter(live);
    const payments = [...organisation.records.Payments.values()].filter(live);

    const ledger = await populateThroughAKill({
      sellerId: 611,
      tenantId: 61,
      jobId: 6101,
      total: invoices.length,
    });

    const ids = ledger.invoices.map((r) => r.providerId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(invoices.map((r) => String(r.InvoiceID)).sort());
    expect(ledger.payments).toHaveLength(payments.length);
    expect(new Set(ledger.payments.map((r) => r.providerId)).size).toBe(payments.length);
    const base = (r: Record<string, unknown>) => Math.round(cents(r.Total) / Number(r.CurrencyRate ?? 1));
    expect(sumOf(ledger.invoices, (r) => r.amount)).toBe(sumOf(invoices, base));
  });

  it('Sage Intacct: ends with every invoice and payment once and the company’s figures', async () => {
    const vault = createCredentialVault({ db: world.db(), masterSecret: world.config.SESSION_SECRET });
    const credentialsRef = await vault.store({ tenantId: 62, kind: 'sage', secret: sageFixture.login });
    await handleCommand(
      sellerDecider,
      {
        streamId: sellerStream(621),
        commandId: 'connect-621',
        command: {
          type: 'ConnectSeller',
          now: new Date(),
          data: {
            sellerId: 621,
            tenantId: 62,
            provider: 'SAGE',
            actor: systemActor,
            tenantIsDemo: false,
            tenantHasConnectedSeller: false,
            planAllowsProvider: true,
            companyName: 'KILL-CO',
            url: null,
            authMethod: 'password',
            authTokenOwner: 'ws-user',
            credentialsRef,
            companyFilePath: null,
          },
        },
      },
      world.events().writeSide,
    );
    const { ARINVOICE, ARPYMT } = sageFixture.objects;

    const ledger = await populateThroughAKill({
      sellerId: 621,
      tenantId: 62,
      jobId: 6201,
      total: ARINVOICE.length,
    });

    const ids = ledger.invoices.map((r) => r.providerId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(ARINVOICE.length);
    expect(ledger.payments).toHaveLength(ARPYMT.length);
    expect(sumOf(ledger.invoices, (r) => r.amount)).toBe(sumOf(ARINVOICE, (r) => cents(r.TOTALENTERED)));
    expect(sumOf(ledger.invoices, (r) => r.balance)).toBe(sumOf(ARINVOICE, (r) => cents(r.TOTALDUE)));
    expect(sumOf(ledger.payments, (r) => r.amount)).toBe(sumOf(ARPYMT, (r) => cents(r.TOTALENTERED)));
  });

  it('Stripe: ends with every invoice, charge and credit note once and the account’s figures', async () => {
    const account = stripeAccount('acct_1KillRides', {
      customers: 40,
      products: 6,
      invoices: 3000,
      creditNotes: 25,
    });
    stripe.addAccount(account);
    // A list answer takes what Stripe's does: the populate lasts seconds, long enough to kill inside.
    stripe.setPace(15);
    await connectOAuthSeller(world, {
      sellerId: 631,
      tenantId: 63,
      provider: 'STRIPE',
      companyName: 'Kill Rides',
      secret: { accessToken: 'sk_test_connected', tokenType: 'bearer', accountId: account.id },
    });
    const invoices = [...account.objects.invoices.values()];
    const charges = [...account.objects.charges.values()];
    const notes = [...account.objects.credit_notes.values()];

    const ledger = await populateThroughAKill({
      sellerId: 631,
      tenantId: 63,
      jobId: 6301,
      total: invoices.length,
    });
    stripe.setPace(0);

    const ids = ledger.invoices.map((r) => r.providerId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(invoices.map((r) => String(r.id)).sort());
    const chargeIds = ledger.payments.map((r) => r.providerId);
    expect(new Set(chargeIds).size).toBe(chargeIds.length);
    expect(chargeIds.sort()).toEqual(charges.map((r) => String(r.id)).sort());
    expect(ledger.creditMemos.map((r) => r.providerId).sort()).toEqual(notes.map((r) => String(r.id)).sort());
    expect(sumOf(ledger.invoices, (r) => r.amount)).toBe(sumOf(invoices, (r) => Number(r.total)));
    expect(sumOf(ledger.invoices, (r) => r.balance)).toBe(sumOf(invoices, (r) => Number(r.amount_remaining)));
    expect(sumOf(ledger.payments, (r) => r.amount)).toBe(sumOf(charges, (r) => Number(r.amount)));
    expect(sumOf(ledger.creditMemos, (r) => r.amount)).toBe(sumOf(notes, (r) => Number(r.total)));
    // Each charge is applied once, to the invoice its invoice payment names: the applications
    // settle exactly what Stripe says is paid and credited.
    const applied = sumOf([...ledger.payments, ...ledger.creditMemos], (s) =>
      sumOf(s.applications, (a) => a.amount),
    );
    expect(applied).toBe(sumOf(invoices, (r) => Number(r.total) - Number(r.amount_remaining)));
    expect(ledger.payments.every((p) => p.applications.length === 1)).toBe(true);
  });
});
