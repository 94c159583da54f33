import { ERASED, tenantSubject } from '../../commands/personal-data';
import type { EventStore } from '../../commands/event-store/event-store';
import { auditHistoryProjection } from '../../projections/audit-history/audit-history-projection';
import { billingSubscriptionsProjection } from '../../projections/billing/billing-projection';
import type { Projection } from '../../projections/framework/projection';
import { ProjectionProcessor } from '../../projections/framework/projection-processor';
import { currentVersion } from '../../projections/framework/read-model-versions';
import { rebuildProjection } from '../../projections/framework/rebuild-projection';
import { integrationsProjection } from '../../projections/integrations/integrations-projection';
import { invitesProjection } from '../../projections/invites/invites-projection';
import { queryPendingInvites } from '../../projections/invites/query-invites';
import { listTenantRecipients } from '../../projections/recipients/query-recipients';
import { recipientsProjection } from '../../projections/recipients/recipients-projection';
import { sellersProjection } from '../../projections/sellers/sellers-projection';
import { queryTenant } from '../../projections/tenants/query-tenant';
import { tenantsProjection } from '../../projections/tenants/tenants-projection';
import { usersProjection } from '../../projections/users/users-projection';
import { billingStream, integrationStream, recipientStream, sellerStream } from '../../contracts/stream-ids';
import { platformAdmin, portalCommands, type PortalCommands } from './portal-commands';
import { useProjectionTestSetup } from './projection-test-setup';
import { versionChecksums } from './read-model-checksum';

/**
 * Issue 12: a purge that keeps the tenant's record (not permanent) still erases its personal-data
 * key, so no read model may keep a readable copy of that data: each must end as a rebuild after the
 * erasure would (docs/adr/0005-personal-data.md).
 */
const { context, openStore } = useProjectionTestSetup(__filename);

const projections: Projection[] = [
  tenantsProjection,
  usersProjection,
  sellersProjection,
  invitesProjection,
  recipientsProjection,
  integrationsProjection,
  billingSubscriptionsProjection,
  auditHistoryProjection,
];

/** What the purged company's events carried, each readable only with its key. */
const globexPersonalData = [
  'Globex Corporation',
  'Globex Friendly',
  'globex-referrer',
  '/globex-landing',
  'pat@globex.example',
  'Pat Invitee',
  'casey@globex.example',
  'Casey Contact',
  'owner@globex.example',
  'C:\\Users\\hank\\globex.qbw',
  'crm@globex.example',
  'We moved to spreadsheets',
] as const;

let store: EventStore;
let commands: PortalCommands;

const catchUp = async () => {
  for (const projection of projections)
    await new ProjectionProcessor({ db: context.db, store, decode: context.decode, projection }).catchUp();
};

/** Every document of every collection, as text. */
const everything = async () => {
  const names = (await context.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  const documents = await Promise.all(names.map((name) => context.db.collection(name).find().toArray()));
  return JSON.stringify(documents);
};

/** Which of the purged company's values the text holds (as JSON writes them). */
const readable = (text: string) =>
  globexPersonalData.filter((value) => text.includes(JSON.stringify(value).slice(1, -1)));

/** The personal data a company's events carry, for the tenant `tenantId` with the given words. */
const recordCompany = async (tenantId: number, company: 'globex' | 'acme') => {
  const c = commands;
  const words = company === 'globex' ? globexPersonalData : null;
  const text = (globex: (typeof globexPersonalData)[number], acme: string) => (words ? globex : acme);
  const at = () => c.now().toISOString();
  await c.tenant(tenantId, {
    type: 'CreateTenant',
    actor: platformAdmin,
    data: {
      tenantId,
      name: text('Globex Corporation', 'Acme Holdings'),
      friendlyName: text('Globex Friendly', 'Acme Friendly'),
      classification: 'BUSINESS',
      referrer: text('globex-referrer', 'acme-referrer'),
      landingPage: text('/globex-landing', '/acme-landing'),
    },
  });
  await c.invitePerson(`00000000-0000-4000-8000-00000000000${tenantId}`, {
    tenantId,
    email: text('pat@globex.example', 'pat@acme.example'),
    name: text('Pat Invitee', 'Pat Acme'),
    role: 'USER',
  });
  const sellerId = tenantId * 10;
  await c.append(sellerStream(sellerId), 'SellerConnected', {
    sellerId,
    tenantId,
    provider: 'QBD',
    companyName: `Company ${sellerId}`,
    url: null,
    authMethod: 'web_connector',
    authTokenOwner: text('owner@globex.example', 'owner@acme.example'),
    credentialsRef: null,
    companyFilePath: text('C:\\Users\\hank\\globex.qbw', 'C:\\Users\\ann\\acme.qbw'),
    connectedAt: at(),
  });
  await c.append(recipientStream(sellerId + 1), 'RecipientSubscribed', {
    recipientId: sellerId + 1,
    tenantId,
    sellerId,
    subscriberUserId: null,
    subscriberEmail: text('casey@globex.example', 'casey@acme.example'),
    subscriberGivenName: text('Casey Contact', 'Casey Acme'),
    subscriberFamilyName: 'Smith',
    subscriberJobTitle: null,
    state: 'ACTIVE',
    sendWeekly: true,
    sendMonthly: false,
    subscribedAt: at(),
  });
  await c.append(integrationStream(sellerId + 2), 'IntegrationConnected', {
    integrationId: sellerId + 2,
    tenantId,
    provider: 'GOOGLE',
    productIdentifier: null,
    authMethod: 'oauth2',
    credentialsRef: `secrets/integration-${sellerId + 2}`,
    credentialsOwner: text('crm@globex.example', 'crm@acme.example'),
    accountUrl: null,
    settings: null,
    connectedAt: at(),
  });
  await c.startSubscription(sellerId + 3, { tenantId, billingTenantId: tenantId, plan: 'growth' });
  await c.append(billingStream(sellerId + 3), 'BillingCancellationScheduled', {
    subscriptionId: sellerId + 3,
    tenantId,
    intent: 'cancel',
    reason: 'OTHER',
    details: text('We moved to spreadsheets', 'Acme keeps its books'),
    downgradeTo: null,
    effectiveAt: at(),
  });
};

beforeAll(async () => {
  store = openStore();
  commands = portalCommands(store, context.keys);
  await recordCompany(1, 'acme');
  await recordCompany(2, 'globex');
  await catchUp();
  // The read models held the company's data before the purge (what makes the test below mean something).
  expect(readable(await everything())).toEqual(globexPersonalData);

  // DELETE /api/tenants/2?purge=true: the purge event, then its key is erased (gateway/routes/tenants).
  await commands.tenant(2, { type: 'DisableTenant', actor: platformAdmin, data: { reason: 'TESTING' } });
  await commands.tenant(2, { type: 'PurgeTenant', actor: platformAdmin, data: { permanent: false } });
  await context.keys.erase(tenantSubject(2));
  await catchUp();
});

describe('a purge that keeps the tenant record (not permanent)', () => {
  it('leaves none of the tenant’s personal data readable in any read model', async () => {
    const after = await everything();
    expect(readable(after)).toEqual([]);
    // The other company keeps everything.
    for (const value of ['Acme Holdings', 'pat@acme.example', 'casey@acme.example', 'crm@acme.example'])
      expect(after).toContain(value);
  });

  it('drops the tenant’s invitations and report recipients', async () => {
    const now = new Date('2026-01-06T09:00:00.000Z');
    expect((await queryPendingInvites(context.db, { tenantId: 2, now })).invites).toEqual([]);
    expect((await listTenantRecipients(context.db, { tenantId: 2 })).recipients).toEqual([]);
    expect((await queryPendingInvites(context.db, { tenantId: 1, now })).invites).toHaveLength(1);
    expect((await listTenantRecipients(context.db, { tenantId: 1 })).recipients).toHaveLength(1);
  });

  it('keeps the purged tenant for the admin, its name and referral erased', async () => {
    expect((await queryTenant(context.db, { tenantId: 2, includePurged: true })).tenant).toMatchObject({
      status: 'purged',
      Name: ERASED,
      Referrer: ERASED,
      LandingPage: ERASED,
    });
  });

  it('erases the request addresses of the tenant’s audit rows, not the other tenant’s', async () => {
    const version = await currentVersion(context.db, auditHistoryProjection.name);
    const rows = context.db.collection<{ tenantId: number; request: { ip: string | null } }>(
      `audit_history_v${version}`,
    );
    const ips = async (tenantId: number) =>
      new Set(
        (await rows.find({ tenantId, 'request.ip': { $ne: null } }).toArray()).map((r) => r.request.ip),
      );
    expect(await ips(2)).toEqual(new Set([ERASED]));
    expect(await ips(1)).toEqual(new Set(['203.0.113.9']));
  });

  it('writes what a rebuild after the erasure writes, in every read model', async () => {
    for (const projection of projections) {
      const live = await versionChecksums(
        context.db,
        projection,
        await currentVersion(context.db, projection.name),
      );
      await rebuildProjection({ db: context.db, store, decode: context.decode }, projection, {
        batchSize: 3,
      });
      const rebuilt = await versionChecksums(
        context.db,
        projection,
        await currentVersion(context.db, projection.name),
      );
      expect({ [projection.name]: rebuilt }).toEqual({ [projection.name]: live });
    }
  });
});
