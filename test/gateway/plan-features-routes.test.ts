import { TenantFeaturesResponse } from '../../contracts/api/features';
import { companyFor } from './fixtures';
import { useGatewayWorld } from './gateway-world';
import { grantProducts, makeDemo } from './platform-fixtures';
import { person } from './team-fixtures';

const world = useGatewayWorld(__filename);

describe('GET /api/tenants/{id}/features', () => {
  it('lists the plan-gated features the company has, none without a subscription, only to its members', async () => {
    const owner = await person(world, { name: 'features-owner' });
    const tenantId = await companyFor(world, owner, { name: 'Features Co' });
    const features = async () =>
      TenantFeaturesResponse.parse((await owner.browser.get(`/api/tenants/${tenantId}/features`)).json())
        .Features;
    expect(await features()).toEqual([]);

    await grantProducts(world, tenantId, ['platforms/sage', 'reports/not_gated']);
    await world.settle();
    expect(await features()).toEqual(['platforms/sage']);

    const stranger = await person(world, { name: 'features-stranger' });
    await companyFor(world, stranger, { name: 'Elsewhere Co' });
    expect((await stranger.browser.get(`/api/tenants/${tenantId}/features`)).statusCode).toBe(403);
  });

  it('gives a demo tenant every gated feature without a subscription, as the spec says', async () => {
    const owner = await person(world, { name: 'features-demo' });
    const tenantId = await companyFor(world, owner, { name: 'Demo Features Co' });
    await makeDemo(world, tenantId);
    const { Features } = TenantFeaturesResponse.parse(
      (await owner.browser.get(`/api/tenants/${tenantId}/features`)).json(),
    );
    expect(Features).toEqual([
      'integrations/active_campaign',
      'integrations/hubspot',
      'integrations/hubspot_revops',
      'integrations/salesforce',
      'platforms/qbd_web_connector',
      'platforms/sage',
    ]);
  });
});
