import { useLedgerWorld } from '../workflows/ledger-world';
import { ledgerIdOf } from '../../workflows/connectors/shared/ledger-ids';
import { connectOAuthSeller, connectorWorkers, runSync, storedLedger } from './connector-world';

jest.setTimeout(120_000);

const world = useLedgerWorld(__filename);
const workers = connectorWorkers(world, () => world.config);

afterAll(async () => {
  await workers.close();
});

type Listed = { data: Record<string, unknown>[] };

/** What stripe-mock (the real server of Stripe's OpenAPI fixtures) answers, read without the connector. */
const fixtures = async (path: string): Promise<Record<string, unknown>[]> => {
  const response = await fetch(`${world.config.STRIPE_API_URL}/v1/${path}?limit=100`, {
    headers: {
      authorization: `Bearer ${world.config.STRIPE_SECRET_KEY}`,
      'stripe-account': 'acct_1LedgerwiseTest',
    },
  });
  return ((await response.json()) as Listed).data;
};

describe('Stripe sync against stripe-mock', () => {
  const tenantId = 51;
  const sellerId = 501;

  beforeAll(async () => {
    await connectOAuthSeller(world, {
      sellerId,
      tenantId,
      provider: 'STRIPE',
      companyName: 'Rocket Rides',
      secret: { accessToken: 'sk_test_connected', tokenType: 'bearer', accountId: 'acct_1LedgerwiseTest' },
    });
  });

  it('populates customers, receivable invoices, customer charges and credit notes as Stripe lists them', async () => {
    const outcome = await runSync(world, workers, { sellerId, tenantId, mode: 'populate', jobId: 5001 });
    expect(outcome).toMatchObject({ ok: true });
    const ledger = await storedLedger(world.db(), sellerId);

    const customers = (await fixtures('customers')).filter((c) => !c.deleted);
    expect(ledger.customers.map((c) => c.providerId).sort()).toEqual(
      customers.map((c) => String(c.id)).sort(),
    );
    expect(ledger.customers[0]).toMatchObject({
      customerId: ledgerIdOf(String(customers[0]!.id)),
      habit: null,
    });

    // Drafts are not receivables; void ones no longer count.
    const invoices = (await fixtures('invoices')).filter((i) => i.status !== 'draft' && i.status !== 'void');
    expect(ledger.invoices.map((i) => i.providerId).sort()).toEqual(invoices.map((i) => String(i.id)).sort());
    const charges = (await fixtures('charges')).filter((c) => c.status === 'succeeded' && c.customer);
    expect(ledger.payments.map((p) => p.providerId).sort()).toEqual(charges.map((c) => String(c.id)).sort());

    const notes = (await fixtures('credit_notes')).filter((n) => n.status !== 'void');
    expect(ledger.creditMemos).toHaveLength(notes.length);
    for (const note of notes)
      expect(ledger.creditMemos.find((m) => m.providerId === note.id)).toMatchObject({
        amount: note.total,
        date: new Date(Number(note.created) * 1000),
        applications: [{ invoiceProviderId: note.invoice, amount: note.total }],
      });
    const products = await fixtures('products');
    expect(ledger.products.map((p) => p.providerId).sort()).toEqual(
      [...products.map((p) => String(p.id)), 'ledgerwise:adjustments'].sort(),
    );
  });

  it('syncs from the account’s events since the CollectionDate, leaving the ledger as Stripe has it', async () => {
    const before = await storedLedger(world.db(), sellerId);
    const outcome = await runSync(world, workers, { sellerId, tenantId, mode: 'sync', jobId: 5002 });
    expect(outcome).toMatchObject({ ok: true });
    expect(await storedLedger(world.db(), sellerId)).toEqual(before);
  });
});
