import { RecipientResponse, RecipientsResponse } from '../../contracts/api/recipients';
import { SellerResponse } from '../../contracts/api/sellers';
import { ErrorResponse } from '../../contracts/errors';
import type { Browser } from './gateway-world';
import { useGatewayWorld } from './gateway-world';
import { companyFor, platformAdmin, signUp } from './fixtures';
import { joinAs } from './team-fixtures';

const world = useGatewayWorld(__filename);

const recipient = (response: { json: () => unknown }) => RecipientResponse.parse(response.json());
const error = (response: { json: () => unknown }) => ErrorResponse.parse(response.json());

let count = 0;
/** A company with a demo seller, its admin and a plain USER. */
const company = async () => {
  // Two companies are made at once: each keeps its own number across the awaits.
  const n = (count += 1);
  const admin = await signUp(world, { name: `rcp-admin-${n}` });
  const tenantId = await companyFor(world, admin, { name: `Recipients Co ${n}` });
  const user = await signUp(world, { name: `rcp-user-${n}` });
  await joinAs(world, user, { tenantId, role: 'USER' });
  const seller = SellerResponse.parse(
    (await admin.browser.post('/api/sellers', { provider: 'DEMO' })).json(),
  );
  return { tenantId, sellerId: seller.Id, admin: admin.browser, user, userId: user.session.user.Id };
};

/** Two companies shared by the tests (each test uses its own recipients), to keep the file quick. */
let shared: Promise<[Awaited<ReturnType<typeof company>>, Awaited<ReturnType<typeof company>>]> | undefined;
const companies = () => (shared ??= Promise.all([company(), company()]));

let operator: Browser;
const admin = async () => {
  operator ??= (await platformAdmin(world)).browser;
  return operator;
};

describe('adding report recipients', () => {
  it('adds a contact with weekly reports by default and refuses the same email again', async () => {
    const [{ tenantId, sellerId, admin: browser }] = await companies();
    const email = world.email('contact');
    const added = await browser.post('/api/subscriptions', {
      email,
      name: 'Casey Jones',
      sellerId,
      jobTitle: 'Controller',
    });
    expect(added.statusCode).toBe(200);
    expect(recipient(added)).toMatchObject({
      TenantId: tenantId,
      SellerId: sellerId,
      SubscriberId: null,
      Subscriber: { Email: email, GivenName: 'Casey', FamilyName: 'Jones', JobTitle: 'Controller' },
      STATE: 'ACTIVE',
      SendWeekly: true,
      SendMonthly: false,
    });
    const again = await browser.post('/api/subscriptions', { email: email.toUpperCase(), sellerId });
    expect(again.statusCode).toBe(422);
    expect(error(again)).toMatchObject({
      message: 'The email is already in use.',
      properties: { email: 'not_unique' },
    });
  });

  it('refuses bad input with field errors', async () => {
    const [{ sellerId, admin: browser }, other] = await companies();
    const bad = await browser.post('/api/subscriptions', { email: 'not-an-email', sellerId: 'x' });
    expect(bad.statusCode).toBe(422);
    expect(error(bad).properties?.email).toBe('Email is invalid');
    expect(Object.keys(error(bad).properties ?? {})).toContain('sellerId');
    const none = await browser.post('/api/subscriptions', { sellerId });
    expect(error(none).properties).toEqual({ email: 'Email is required' });
    const foreignSeller = await browser.post('/api/subscriptions', {
      email: world.email('f'),
      sellerId: other.sellerId,
    });
    expect(foreignSeller.statusCode).toBe(422);
    expect(error(foreignSeller).properties).toEqual({ sellerId: 'No such seller in this company.' });
    const stranger = await browser.post('/api/subscriptions', { userId: other.userId, sellerId });
    expect(error(stranger).properties).toEqual({ userId: 'Not a member of this company.' });
  });

  it('lets a plain user subscribe only themselves', async () => {
    const [{ sellerId, user, userId }] = await companies();
    const own = await user.browser.post('/api/subscriptions', { userId, sellerId, SendMonthly: true });
    expect(own.statusCode).toBe(200);
    expect(recipient(own)).toMatchObject({
      SubscriberId: userId,
      Subscriber: { Email: user.email },
      SendWeekly: false,
      SendMonthly: true,
    });
    const someone = await user.browser.post('/api/subscriptions', { email: world.email('x'), sellerId });
    expect(someone.statusCode).toBe(403);
    expect(error(someone).message).toBe('You may change only your own subscriptions.');
  });
});

describe('listing recipients', () => {
  it('lists the tenant’s recipients; other tenants see none of them; scope=all is for platform admins', async () => {
    const [{ sellerId, admin: browser, user }, other] = await companies();
    const { Id } = recipient(
      await browser.post('/api/subscriptions', { email: world.email('listed'), sellerId }),
    );
    const mine = RecipientsResponse.parse((await user.browser.get('/api/subscriptions')).json());
    expect(mine.rows.map((row) => row.Id)).toContain(Id);
    const theirs = RecipientsResponse.parse((await other.admin.get('/api/subscriptions')).json());
    expect(theirs.rows.map((row) => row.Id)).not.toContain(Id);
    expect((await user.browser.get('/api/subscriptions?scope=all')).statusCode).toBe(403);
    const all = RecipientsResponse.parse(
      (await (await admin()).get(`/api/subscriptions?scope=all&sellerId=${sellerId}`)).json(),
    );
    expect(all.rows.map((row) => row.Id)).toContain(Id);
    expect(all.rows.every((row) => row.SellerId === sellerId)).toBe(true);
    expect((await user.browser.get('/api/subscriptions?state=GONE')).statusCode).toBe(422);
  });
});

describe('changing a subscription', () => {
  it('toggles one flag or the state; a user only their own; activation only by a platform admin', async () => {
    // The second company is home here: its user has no subscription yet.
    const [other, { sellerId, admin: browser, user, userId }] = await companies();
    const own = recipient(await user.browser.post('/api/subscriptions', { userId, sellerId }));
    const contact = recipient(
      await browser.post('/api/subscriptions', { email: world.email('c'), sellerId }),
    );

    const monthly = await user.browser.patch(`/api/subscriptions/${own.Id}`, { SendMonthly: true });
    expect(recipient(monthly)).toMatchObject({ SendWeekly: true, SendMonthly: true });
    const notMine = await user.browser.patch(`/api/subscriptions/${contact.Id}`, { SendWeekly: false });
    expect(notMine.statusCode).toBe(403);
    expect(error(notMine).message).toBe(
      'Error Toggling SendWeekly to false: you may change only your own subscriptions.',
    );
    const two = await user.browser.patch(`/api/subscriptions/${own.Id}`, {
      SendWeekly: false,
      SendMonthly: false,
    });
    expect(two.statusCode).toBe(422);
    expect(error(two).properties).toEqual({
      STATE: 'Send STATE or exactly one of SendWeekly and SendMonthly',
    });

    // Deactivating and activating are platform-admin actions (portal.md section 6).
    const refusedOff = await user.browser.patch(`/api/subscriptions/${own.Id}`, { STATE: 'INACTIVE' });
    expect(error(refusedOff).message).toBe(
      'Error Deactivating Subscription: only a platform administrator can deactivate a subscription.',
    );
    const off = await (await admin()).patch(`/api/subscriptions/${own.Id}`, { STATE: 'INACTIVE' });
    expect(recipient(off)).toMatchObject({ STATE: 'INACTIVE', Danger: true, StateAction: 'activate' });
    const on = await browser.patch(`/api/subscriptions/${own.Id}`, { STATE: 'ACTIVE' });
    expect(on.statusCode).toBe(403);
    expect(error(on).message).toBe(
      'Error Activating Subscription: only a platform administrator can activate a subscription.',
    );
    const activated = await (await admin()).patch(`/api/subscriptions/${own.Id}`, { STATE: 'ACTIVE' });
    expect(recipient(activated)).toMatchObject({ STATE: 'ACTIVE', Danger: false });

    expect((await other.admin.patch(`/api/subscriptions/${own.Id}`, { SendWeekly: false })).statusCode).toBe(
      404,
    );
  });

  it('deletes a subscription: platform admins only (portal.md section 6)', async () => {
    const [{ sellerId, admin: browser, user }, other] = await companies();
    const contact = recipient(
      await browser.post('/api/subscriptions', { email: world.email('d'), sellerId }),
    );
    expect((await other.admin.delete(`/api/subscriptions/${contact.Id}`)).statusCode).toBe(403);
    expect((await user.browser.delete(`/api/subscriptions/${contact.Id}`)).statusCode).toBe(403);
    expect((await browser.delete(`/api/subscriptions/${contact.Id}`)).statusCode).toBe(403);
    const platform = await admin();
    expect((await platform.delete(`/api/subscriptions/${contact.Id}`)).json()).toEqual({ ok: true });
    const left = RecipientsResponse.parse((await browser.get('/api/subscriptions')).json());
    expect(left.rows.map((row) => row.Id)).not.toContain(contact.Id);
    expect((await platform.delete(`/api/subscriptions/${contact.Id}`)).statusCode).toBe(404);
    expect((await platform.delete('/api/subscriptions/abc')).statusCode).toBe(422);
  });
});
