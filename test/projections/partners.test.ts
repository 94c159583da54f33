import { tenantSubject } from '../../commands/personal-data';
import type { PartnerCommand } from '../../domain/partner/decide';
import { partnerDecider } from '../../domain/partner/partner-decider';
import { partnersProjection } from '../../projections/partners/partners-projection';
import {
  getPartner,
  isPartnerNameTaken,
  listPartners,
  listTenantPartners,
} from '../../projections/partners/query-partners';
import { tenantsProjection } from '../../projections/tenants/tenants-projection';
import { platformAdmin, useReadModelKit } from './read-model-kit';
import { partnerStream } from '../../contracts/stream-ids';

const kit = useReadModelKit(__filename, partnersProjection, [tenantsProjection]);
const { context } = kit;

const now = new Date('2026-01-10T12:00:00.000Z');

type Data<T extends PartnerCommand['type']> = Extract<PartnerCommand, { type: T }>['data'];
const partner = <T extends PartnerCommand['type']>(id: number, type: T, data: Data<T>) =>
  kit.run(partnerDecider, partnerStream(id), { type, data, now, actor: platformAdmin } as PartnerCommand);

const client = (tenantId: number, name: string, partnerId: number) =>
  kit.tenant(tenantId, 'CreateTenant', { tenantId, name, classification: 'BUSINESS', partnerId });

const ids = (rows: readonly { Id: number }[]) => rows.map((row) => row.Id);

beforeAll(async () => {
  await kit.tenant(1, 'CreateTenant', { tenantId: 1, name: 'Lovelace Advisory', classification: 'FIRM' });
  await kit.tenant(2, 'CreateTenant', { tenantId: 2, name: 'Babbage & Co', classification: 'FIRM' });
  await partner(50, 'CreatePartner', {
    partnerId: 50,
    tenantId: 1,
    name: 'Lovelace Partners',
    clientPlanIdentifier: 'growth_client',
    logoUrl: 'https://cdn.example/lovelace.png',
    nameTakenInTenant: false,
  });
  await partner(60, 'CreatePartner', {
    partnerId: 60,
    tenantId: 2,
    name: 'Babbage Network',
    clientPlanIdentifier: 'basic_client',
    nameTakenInTenant: false,
  });
  await client(3, 'Hopper Bakery', 50);
  await client(4, 'Turing Tools', 50);
  await client(5, 'Noether Labs', 60);
  // A client purged (not permanently) is no one's client any more.
  await client(6, 'Gone Ltd', 50);
  await kit.tenant(6, 'DisableTenant', { reason: 'STOPPED_PAYING' });
  await kit.tenant(6, 'PurgeTenant', { permanent: false });
  await kit.catchUp();
});

describe('the admin partners table', () => {
  it('lists partners with tenant, client plan, logo and Clients count', async () => {
    const page = await listPartners(context.db);

    expect([page.total, page.filtered, page.stale]).toEqual([2, 2, false]);
    expect(page.rows).toEqual([
      {
        Id: 50,
        TenantId: 1,
        Tenant: { Id: 1, Name: 'Lovelace Advisory' },
        Name: 'Lovelace Partners',
        ClientPlanIdentifier: 'growth_client',
        LogoURL: 'https://cdn.example/lovelace.png',
        WeeklyDay: null,
        MonthlyDay: null,
        Clients: 2,
        createdAt: now.toISOString(),
      },
      expect.objectContaining({ Id: 60, Tenant: { Id: 2, Name: 'Babbage & Co' }, Clients: 1 }),
    ]);
  });

  it('searches partner names, tenant names, client plans and ids', async () => {
    const search = (text: string) =>
      listPartners(context.db, { search: text }).then((p) => [ids(p.rows), p.filtered]);

    expect(await search('network')).toEqual([[60], 1]);
    expect(await search('LOVELACE ADV')).toEqual([[50], 1]);
    expect(await search('basic_')).toEqual([[60], 1]);
    expect(await search('50')).toEqual([[50], 1]);
    expect(await search('2')).toEqual([[60], 1]); // tenant id
  });

  it('counts a client that moves to another partner under its new partner', async () => {
    await kit.tenant(4, 'ChangeTenantPartner', { partnerId: 60 });
    await kit.catchUp();

    const clients = (await listPartners(context.db)).rows.map((row) => [row.Id, row.Clients]);
    expect(clients).toEqual([
      [50, 1],
      [60, 2],
    ]);
  });
});

describe('a tenant’s partners', () => {
  it('lists only the partners the tenant owns, and gets one by id', async () => {
    expect(ids((await listTenantPartners(context.db, { tenantId: 1 })).partners)).toEqual([50]);
    expect(ids((await listTenantPartners(context.db, { tenantId: 2 })).partners)).toEqual([60]);
    expect((await listTenantPartners(context.db, { tenantId: 3 })).partners).toEqual([]);
    expect(await getPartner(context.db, { partnerId: 60 })).toMatchObject({ Name: 'Babbage Network' });
    expect(await getPartner(context.db, { partnerId: 99 })).toBeNull();
  });

  it('follows renames, plan, logo and client report days', async () => {
    await partner(50, 'UpdatePartner', {
      name: 'Lovelace Alliance',
      clientPlanIdentifier: 'expansion_client',
      logoUrl: null,
      clientWeeklyDay: 1,
      clientMonthlyDay: 15,
      nameTakenInTenant: false,
    });
    await kit.catchUp();

    expect(await getPartner(context.db, { partnerId: 50 })).toMatchObject({
      Name: 'Lovelace Alliance',
      ClientPlanIdentifier: 'expansion_client',
      LogoURL: null,
      WeeklyDay: 1,
      MonthlyDay: 15,
    });
  });

  it('tells the command layer whether a name is taken within the tenant, in any case and spacing', async () => {
    expect(await isPartnerNameTaken(context.db, { tenantId: 1, name: '  lovelace ALLIANCE ' })).toBe(true);
    expect(await isPartnerNameTaken(context.db, { tenantId: 2, name: 'Lovelace Alliance' })).toBe(false);
    expect(
      await isPartnerNameTaken(context.db, { tenantId: 1, name: 'Lovelace Alliance', exceptPartnerId: 50 }),
    ).toBe(false);
  });
});

describe('the partners read model', () => {
  it('gives identical documents when every event is delivered again, and when rebuilt', async () => {
    await kit.expectStableUnderRedeliveryAndRebuild();
  });

  it('removes the partners of a permanently purged tenant', async () => {
    await kit.tenant(2, 'DisableTenant', { reason: 'TESTING' });
    await kit.tenant(2, 'PurgeTenant', { permanent: true });
    await context.keys.erase(tenantSubject(2));
    await kit.catchUp();

    expect(ids((await listPartners(context.db)).rows)).toEqual([50]);
    const live = await kit.checksums();
    await kit.rebuild();
    expect(await kit.checksums()).toEqual(live);
  });
});
