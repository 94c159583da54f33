import { handleCommand } from '../../commands/command-handler';
import { eventRegistry } from '../../commands/event-registry';
import { createPersonalDataProtector } from '../../commands/personal-data';
import { runWithRequestContext } from '../../commands/request-context';
import { integrationStream } from '../../contracts/stream-ids';
import type { IntegrationCommand } from '../../domain/integration/decide';
import { integrationDecider } from '../../domain/integration/integration-decider';
import { currentCollection } from '../../projections/framework/read-model-versions';
import {
  crmCompanyLinksProjection,
  type CrmCompanyLinkDoc,
} from '../../projections/integrations/crm-company-links-projection';
import { platformAdmin, useReadModelKit } from './read-model-kit';

/**
 * The crm_company_links read model: one row per linked customer from the per-seller changes a sync
 * records, gone with the link, the account (IntegrationDeleted) or the tenant (TenantPurged), and the
 * same after every event is delivered again and after a rebuild.
 */
const kit = useReadModelKit(__filename, crmCompanyLinksProjection);
const now = new Date('2026-02-01T10:00:00.000Z');
let commands = 0;

/** As the sync's activities record them: under the account's tenant. */
const account = (integrationId: number, tenantId: number, command: Omit<IntegrationCommand, 'now'>) => {
  const deps = {
    store: kit.store(),
    registry: eventRegistry,
    personalData: createPersonalDataProtector({ keys: kit.context.keys, registry: eventRegistry }),
  };
  commands += 1;
  return runWithRequestContext({ actor: 'system:test', tenantId }, () =>
    handleCommand(
      integrationDecider,
      {
        streamId: integrationStream(integrationId),
        commandId: `links-${commands}`,
        command: { ...command, now } as IntegrationCommand,
      },
      deps,
    ),
  );
};

const connect = (integrationId: number, tenantId: number) =>
  account(integrationId, tenantId, {
    type: 'ConnectIntegration',
    data: {
      integrationId,
      tenantId,
      provider: 'HUBSPOT',
      productIdentifier: null,
      authMethod: 'oauth2',
      credentialsRef: `secrets/${integrationId}`,
      credentialsOwner: null,
      url: null,
      actor: platformAdmin,
      tenantIsDemo: false,
      planAllowsProvider: true,
    },
  });

const matched = (
  integrationId: number,
  tenantId: number,
  change: { sellerId: number; linked: [string, string][]; unlinked?: string[] },
) =>
  account(integrationId, tenantId, {
    type: 'RecordCompanyMatches',
    data: {
      sellerId: change.sellerId,
      jobId: 1,
      linked: change.linked.map(([customerId, crmId]) => ({ customerId, crmId, method: 'exact' })),
      unlinked: change.unlinked ?? [],
    },
  });

const rows = async () => {
  await kit.catchUp();
  const links = await currentCollection<'links', CrmCompanyLinkDoc>(
    kit.context.db,
    crmCompanyLinksProjection,
    'links',
  );
  return (await links.find({}).toArray())
    .map((doc) => `${doc.tenantId}/${doc.integrationId}/${doc.sellerId}/${doc.customerId}->${doc.crmId}`)
    .sort();
};

describe('the CRM company links', () => {
  it('follows the changes per seller, and drops an account’s and a purged tenant’s links', async () => {
    await kit.tenant(1, 'CreateTenant', { tenantId: 1, name: 'Acme Holdings', classification: 'BUSINESS' });
    await kit.tenant(2, 'CreateTenant', { tenantId: 2, name: 'Globex', classification: 'BUSINESS' });
    await connect(31, 1);
    await connect(32, 1);
    await connect(41, 2);
    await matched(31, 1, {
      sellerId: 5,
      linked: [
        ['1', 'h1'],
        ['2', 'h2'],
        ['3', 'h3'],
      ],
    });
    await matched(31, 1, { sellerId: 6, linked: [['1', 'h1']] });
    await matched(31, 1, { sellerId: 5, linked: [['3', 'h9']], unlinked: ['2'] });
    await matched(32, 1, { sellerId: 5, linked: [['1', 'x1']] });
    await matched(41, 2, { sellerId: 8, linked: [['7', 'g7']] });
    expect(await rows()).toEqual([
      '1/31/5/1->h1',
      '1/31/5/3->h9',
      '1/31/6/1->h1',
      '1/32/5/1->x1',
      '2/41/8/7->g7',
    ]);
    await kit.expectStableUnderRedeliveryAndRebuild();

    await account(32, 1, { type: 'SetIntegrationActive', data: { active: false } });
    await account(32, 1, { type: 'DeleteIntegration', data: {} });
    expect(await rows()).toEqual(['1/31/5/1->h1', '1/31/5/3->h9', '1/31/6/1->h1', '2/41/8/7->g7']);

    await kit.tenant(1, 'DisableTenant', { reason: null });
    await kit.tenant(1, 'PurgeTenant', { permanent: true });
    expect(await rows()).toEqual(['2/41/8/7->g7']);
    await kit.expectStableUnderRedeliveryAndRebuild();
  });
});
