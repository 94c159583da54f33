import { SellerResponse } from '../../contracts/api/sellers';
import { ErrorResponse } from '../../contracts/errors';
import { startSageIntacctFake, type SageIntacctFake } from '../fakes/sage-intacct-fake';
import { companyFor, signUp } from '../gateway/fixtures';
import { useGatewayWorld } from '../gateway/gateway-world';
import { grantProducts } from '../gateway/platform-fixtures';

/**
 * The Sage connect form (POST /api/sellers, provider SAGE) tries the login against Sage Intacct's
 * XML gateway (here its fake) before storing it: a wrong password answers 422 with Sage's own words
 * and stores nothing; the right one connects the seller.
 */
const world = useGatewayWorld(__filename);
let fake: SageIntacctFake;

beforeAll(async () => {
  fake = await startSageIntacctFake({
    login: { companyId: 'ACME-CO', userId: 'ws-user', password: 'Sage-secret-1' },
    objects: { CUSTOMER: [], ARINVOICE: [], ARADJUSTMENT: [], ARPYMT: [] },
  });
  // The services read the configuration at request time; point Sage at the fake.
  Object.assign(world.config, fake.configValues);
});

afterAll(async () => {
  await fake.close();
});

it('refuses a wrong Sage login in the platform’s words, then connects with the right one', async () => {
  const owner = await signUp(world, { name: 'sage-owner' });
  const tenantId = await companyFor(world, owner, { name: 'Sage Books Co' });
  await grantProducts(world, tenantId, ['platforms/sage']);
  const form = { provider: 'SAGE', companyId: 'ACME-CO', userId: 'ws-user' };

  const wrong = await owner.browser.post('/api/sellers', { ...form, password: 'not-it' });
  expect(wrong.statusCode).toBe(422);
  expect(ErrorResponse.parse(wrong.json())).toMatchObject({
    message: 'Sage Intacct refused the sign-in: Sign-in information is incorrect. Please check your request.',
    properties: { password: 'Sign-in information is incorrect. Please check your request.' },
  });
  const listed = await owner.browser.get('/api/sellers');
  expect(listed.json<{ rows: unknown[] }>().rows).toEqual([]);

  const right = await owner.browser.post('/api/sellers', { ...form, password: 'Sage-secret-1' });
  expect(right.statusCode).toBe(200);
  expect(SellerResponse.parse(right.json())).toMatchObject({ Provider: 'SAGE', CompanyName: 'ACME-CO' });
  expect(fake.requests.filter((body) => body.includes('<getAPISession />'))).toHaveLength(2);
});
