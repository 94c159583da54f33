import { tenantSubject } from '../../commands/personal-data';
import type { RecipientCommand } from '../../domain/recipient/decide';
import { recipientDecider } from '../../domain/recipient/recipient-decider';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { userDecider } from '../../domain/user/user-decider';
import {
  countRecipientsByTenant,
  findSellerRecipient,
  listAdminRecipients,
  listRecipientsOfSellers,
  listSellerRecipients,
  listTenantRecipients,
} from '../../projections/recipients/query-recipients';
import { recipientsProjection } from '../../projections/recipients/recipients-projection';
import { sellersProjection } from '../../projections/sellers/sellers-projection';
import { usersProjection } from '../../projections/users/users-projection';
import { platformAdmin, useReadModelKit } from './read-model-kit';
import { recipientStream, sellerStream, userStream } from '../../contracts/stream-ids';

const kit = useReadModelKit(__filename, recipientsProjection, [sellersProjection, usersProjection]);
const { context } = kit;

const now = new Date('2026-01-10T12:00:00.000Z');
const tenantAdmin = { ...platformAdmin, userId: 7, isPlatformAdmin: false, tenantRole: 'ADMIN' as const };

type Data<T extends RecipientCommand['type']> = Extract<RecipientCommand, { type: T }>['data'];
const recipient = <T extends RecipientCommand['type']>(id: number, type: T, data: Data<T>) =>
  kit.run(recipientDecider, recipientStream(id), { type, data, now } as RecipientCommand);

const subscribe = (
  id: number,
  where: { tenantId: number; sellerId: number },
  details: Pick<Data<'SubscribeRecipient'>, 'subscriber'> & Partial<Data<'SubscribeRecipient'>>,
) =>
  recipient(id, 'SubscribeRecipient', {
    recipientId: id,
    ...where,
    actor: tenantAdmin,
    subscriberAlreadySubscribed: false,
    ...details,
  });

const registerUser = (userId: number, email: string, givenName: string) =>
  kit.run(userDecider, userStream(userId), {
    type: 'RegisterUser',
    data: {
      userId,
      email,
      givenName,
      familyName: 'Lovelace',
      authProvider: 'password',
      passwordHash: 'hash',
      emailVerified: true,
      emailInUse: false,
    },
    now,
    actor: { ...platformAdmin, userId, isPlatformAdmin: false },
  });

const connectSeller = (sellerId: number, tenantId: number, companyName: string) =>
  kit.run(sellerDecider, sellerStream(sellerId), {
    type: 'ConnectSeller',
    data: {
      sellerId,
      tenantId,
      provider: 'XERO',
      companyName,
      url: null,
      authMethod: 'oauth2',
      authTokenOwner: null,
      credentialsRef: 'secrets/x',
      companyFilePath: null,
      actor: platformAdmin,
      tenantIsDemo: false,
      tenantHasConnectedSeller: false,
      planAllowsProvider: true,
    },
    now,
  });

const ids = (rows: readonly { Id: number }[]) => rows.map((row) => row.Id);

beforeAll(async () => {
  await registerUser(7, 'ada@acme.example', 'Ada');
  await connectSeller(11, 1, 'Acme Ltd');
  await connectSeller(12, 1, 'Acme Desktop');
  await connectSeller(21, 2, 'Globex Trading');

  // Acme: a user subscription, a contact, a contact deactivated by a member's lost access, one deleted.
  await subscribe(31, { tenantId: 1, sellerId: 11 }, { subscriber: { userId: 7 } });
  await subscribe(
    32,
    { tenantId: 1, sellerId: 11 },
    {
      subscriber: { email: 'cfo@acme.example', givenName: 'Grace', familyName: 'Hopper', jobTitle: 'CFO' },
      sendMonthly: true,
    },
  );
  await subscribe(
    33,
    { tenantId: 1, sellerId: 12 },
    { subscriber: { email: 'ops@acme.example', givenName: null, familyName: null, jobTitle: null } },
  );
  await recipient(33, 'DeactivateRecipient', { actor: tenantAdmin, cause: 'member_access_disabled' });
  await subscribe(
    34,
    { tenantId: 1, sellerId: 12 },
    { subscriber: { email: 'gone@acme.example', givenName: null, familyName: null, jobTitle: null } },
  );
  await recipient(34, 'DeleteRecipient', { actor: platformAdmin });

  // Globex: an admin's subscription, with reports already sent.
  await subscribe(
    41,
    { tenantId: 2, sellerId: 21 },
    {
      subscriber: { email: 'watcher@platform.example', givenName: 'Pat', familyName: null, jobTitle: null },
      asAdmin: true,
      actor: platformAdmin,
    },
  );
  await recipient(41, 'TrackRecipientReport', {
    report: 'welcome',
    sentAt: new Date('2026-01-02T08:00:00.000Z'),
  });
  await recipient(41, 'TrackRecipientReport', {
    report: 'weekly',
    sentAt: new Date('2026-01-06T08:00:00.000Z'),
  });
  await kit.catchUp();
});

describe('a tenant’s report recipients', () => {
  it('lists the tenant’s subscriptions with subscriber, seller, state and send flags', async () => {
    const { recipients, stale } = await listTenantRecipients(context.db, { tenantId: 1 });

    expect(stale).toBe(false);
    expect(ids(recipients)).toEqual([31, 32, 33]);
    expect(recipients[0]).toMatchObject({
      SellerId: 11,
      Seller: { Id: 11, CompanyName: 'Acme Ltd' },
      SubscriberId: 7,
      Subscriber: { Id: 7, Email: 'ada@acme.example', GivenName: 'Ada', FamilyName: 'Lovelace' },
      STATE: 'ACTIVE',
      SendWeekly: true,
      SendMonthly: false,
      Danger: false,
      StateAction: 'deactivate',
    });
    expect(recipients[1]).toMatchObject({
      SubscriberId: null,
      Subscriber: {
        Id: null,
        Email: 'cfo@acme.example',
        GivenName: 'Grace',
        FamilyName: 'Hopper',
        JobTitle: 'CFO',
      },
      SendWeekly: false,
      SendMonthly: true,
    });
    expect(recipients[2]).toMatchObject({ STATE: 'DEACTIVATED', Danger: true, StateAction: 'activate' });
  });

  it('lists one seller’s recipients, and none through another tenant', async () => {
    expect(ids((await listSellerRecipients(context.db, { sellerId: 12 })).recipients)).toEqual([33]);
    expect(ids((await listSellerRecipients(context.db, { sellerId: 11, tenantId: 1 })).recipients)).toEqual([
      31, 32,
    ]);
    expect((await listSellerRecipients(context.db, { sellerId: 11, tenantId: 2 })).recipients).toEqual([]);
    const globex = await listTenantRecipients(context.db, { tenantId: 2 });
    expect(ids(globex.recipients)).toEqual([41]);
    expect(globex.recipients[0]).toMatchObject({
      STATE: 'ADMIN',
      TrackWelcomeDate: '2026-01-02T08:00:00.000Z',
      TrackWeeklyDate: '2026-01-06T08:00:00.000Z',
      TrackMonthlyDate: null,
    });
  });

  it('finds one seller’s subscription by id as the list shows it, and no other seller’s, tenant’s or deleted one', async () => {
    const listed = (await listSellerRecipients(context.db, { sellerId: 11, tenantId: 1 })).recipients;
    const find = (recipientId: number, sellerId: number, tenantId: number) =>
      findSellerRecipient(context.db, { recipientId, sellerId, tenantId }).then((found) => found.recipient);
    expect(await find(32, 11, 1)).toEqual(listed.find((row) => row.Id === 32));
    expect(await find(32, 12, 1)).toBeNull();
    expect(await find(32, 11, 2)).toBeNull();
    expect(await find(33, 12, 1)).toMatchObject({ Id: 33, STATE: 'DEACTIVATED' });
    expect(await find(34, 12, 1)).toBeNull();
  });

  it('lists several sellers’ recipients in one query, each seller’s as listed alone', async () => {
    const bySeller = await listRecipientsOfSellers(context.db, { tenantId: 1, sellerIds: [11, 12, 99] });
    expect([...bySeller.keys()]).toEqual([11, 12, 99]);
    for (const sellerId of [11, 12])
      expect(bySeller.get(sellerId)).toEqual(
        (await listSellerRecipients(context.db, { sellerId, tenantId: 1 })).recipients,
      );
    expect(ids(bySeller.get(11)!)).toEqual([31, 32]);
    expect(bySeller.get(99)).toEqual([]);
    // Another tenant's seller has none through this tenant.
    expect((await listRecipientsOfSellers(context.db, { tenantId: 2, sellerIds: [11] })).get(11)).toEqual([]);
  });

  it('shows the user’s current email, since it is read from the users read model', async () => {
    await kit.run(userDecider, userStream(7), {
      type: 'ChangeUserEmail',
      data: { email: 'ada.lovelace@acme.example', emailInUse: false },
      now,
      actor: platformAdmin,
    });
    await kit.catchUp();

    const [ada] = (await listTenantRecipients(context.db, { tenantId: 1 })).recipients;
    expect(ada?.Subscriber.Email).toBe('ada.lovelace@acme.example');
  });
});

describe('the admin recipients table', () => {
  it('lists every tenant’s subscriptions newest first, and counts them', async () => {
    const page = await listAdminRecipients(context.db);

    expect(ids(page.rows)).toEqual([41, 33, 32, 31]);
    expect([page.total, page.filtered]).toEqual([4, 4]);
  });

  it('filters by state, tenant and seller', async () => {
    const query = (filters: Parameters<typeof listAdminRecipients>[1]) =>
      listAdminRecipients(context.db, filters).then((page) => ids(page.rows));

    expect(await query({ states: ['INACTIVE', 'DEACTIVATED'] })).toEqual([33]);
    expect(await query({ states: ['ADMIN'] })).toEqual([41]);
    expect(await query({ tenantId: 1 })).toEqual([33, 32, 31]);
    expect(await query({ sellerId: 11 })).toEqual([32, 31]);
  });

  it('searches contact emails and names, user emails, company names and ids', async () => {
    const search = (text: string) =>
      listAdminRecipients(context.db, { search: text }).then((p) => ids(p.rows));

    expect(await search('HOPPER')).toEqual([32]);
    expect(await search('ada.lovelace@')).toEqual([31]);
    expect(await search('globex')).toEqual([41]);
    expect(await search('acme desktop')).toEqual([33]);
    expect(await search('33')).toEqual([33]);
  });

  it('counts receiving recipients per tenant, or those in chosen states', async () => {
    expect(Object.fromEntries(await countRecipientsByTenant(context.db))).toEqual({ 1: 2, 2: 1 });
    expect(Object.fromEntries(await countRecipientsByTenant(context.db, [1]))).toEqual({ 1: 2 });
    expect(
      Object.fromEntries(await countRecipientsByTenant(context.db, undefined, ['DEACTIVATED', 'INACTIVE'])),
    ).toEqual({ 1: 1 });
  });
});

describe('the recipients read model', () => {
  it('follows activation, deactivation and flag changes', async () => {
    await recipient(33, 'ActivateRecipient', { actor: platformAdmin });
    await recipient(32, 'DeactivateRecipient', { actor: platformAdmin, cause: 'requested' });
    await recipient(31, 'SetRecipientSendFlag', {
      field: 'SendMonthly',
      value: true,
      actor: tenantAdmin,
      ifMissing: null,
    });
    await kit.catchUp();

    const states = (await listTenantRecipients(context.db, { tenantId: 1 })).recipients.map((r) => [
      r.Id,
      r.STATE,
      r.SendWeekly,
      r.SendMonthly,
    ]);
    expect(states).toEqual([
      [31, 'ACTIVE', true, true],
      [32, 'INACTIVE', false, true],
      [33, 'ACTIVE', true, false],
    ]);
  });

  it('gives identical documents when every event is delivered again, and when rebuilt', async () => {
    await kit.expectStableUnderRedeliveryAndRebuild();
  });

  it('removes a permanently purged tenant’s subscriptions', async () => {
    await kit.tenant(2, 'CreateTenant', { tenantId: 2, name: 'Globex', classification: 'BUSINESS' });
    await kit.tenant(2, 'DisableTenant', { reason: 'TESTING' });
    await kit.tenant(2, 'PurgeTenant', { permanent: true });
    await context.keys.erase(tenantSubject(2));
    await kit.catchUp();

    expect(ids((await listAdminRecipients(context.db)).rows)).toEqual([33, 32, 31]);
    const live = await kit.checksums();
    await kit.rebuild();
    expect(await kit.checksums()).toEqual(live);
  });
});
