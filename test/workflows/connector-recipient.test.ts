import pino from 'pino';
import { RecipientsResponse } from '../../contracts/api/recipients';
import { SellerResponse } from '../../contracts/api/sellers';
import { startConnectorRecipientReactor } from '../../workflows/reports/subscribe-connector-reactor';
import { companyFor, platformAdmin, signUp } from '../gateway/fixtures';
import { useGatewayWorld, type Browser } from '../gateway/gateway-world';

/**
 * Whoever connects a company's platform receives its reports: the Connected modal promises the first
 * report, and the setup's recipient step counts the connector as the first recipient.
 */
const world = useGatewayWorld(__filename);

const startReactor = () =>
  startConnectorRecipientReactor({
    writeSide: world.services.writeSide,
    db: world.services.db,
    logger: pino({ level: 'silent' }),
    retryMs: 200,
  });

const recipientsOf = async (browser: Browser, sellerId: number) => {
  await world.settle();
  const answer = await browser.get('/api/subscriptions');
  return RecipientsResponse.parse(answer.json()).rows.filter((row) => row.SellerId === sellerId);
};

const eventually = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return read();
};

describe('the connector of a platform', () => {
  it('is subscribed to the new seller’s reports once, with their own report preferences', async () => {
    const owner = await signUp(world, { name: 'connector' });
    await companyFor(world, owner, { name: 'Connector Co' });
    const reactor = startReactor();
    try {
      const connected = await owner.browser.post('/api/sellers', { provider: 'DEMO' });
      expect(connected.statusCode).toBe(200);
      const sellerId = SellerResponse.parse(connected.json()).Id;
      const rows = await eventually(
        () => recipientsOf(owner.browser, sellerId),
        (found) => found.length > 0,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        SubscriberId: owner.session.user.Id,
        STATE: 'ACTIVE',
        SendWeekly: true,
      });
    } finally {
      await reactor.stop();
    }
    // A restarted reactor (its checkpoint, or a replay) subscribes nobody twice.
    const again = startReactor();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await again.stop();
    const sellers = (await owner.browser.get('/api/sellers')).json<{ rows: { Id: number }[] }>().rows;
    for (const seller of sellers) expect(await recipientsOf(owner.browser, seller.Id)).toHaveLength(1);
  });

  it('leaves a platform admin who connects for a customer out of the customer’s reports', async () => {
    const admin = await platformAdmin(world);
    const customer = await signUp(world, { name: 'customer' });
    const tenantId = await companyFor(world, customer, { name: 'Customer Co' });
    const reactor = startReactor();
    try {
      expect((await admin.browser.post('/api/auth/switchTenant', { tenantId })).statusCode).toBe(200);
      const connected = await admin.browser.post('/api/sellers', { provider: 'DEMO' });
      expect(connected.statusCode).toBe(200);
      const sellerId = SellerResponse.parse(connected.json()).Id;
      // Give the reactor the time it took above, then check nothing was subscribed.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await recipientsOf(customer.browser, sellerId)).toEqual([]);
    } finally {
      await reactor.stop();
    }
  });
});
