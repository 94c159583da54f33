import type { LightMyRequestResponse } from 'fastify';
import { JobsResponse } from '../../contracts/api/jobs';
import { googleAccountOf, recipientOf, sellerOf } from './admin-fixtures';
import { companyFor, signUp } from './fixtures';
import type { Browser } from './gateway-world';
import { useGatewayWorld } from './gateway-world';

const world = useGatewayWorld(__filename);

/** Ids no tenant has; the other tenant's ids must be answered exactly like these. */
const missing = { number: 987_654_321, uuid: '00000000-0000-4000-8000-000000000000' };

/** The parts of an answer a caller sees, minus what differs between any two requests. */
const visible = (response: LightMyRequestResponse) => {
  const {
    date: _date,
    'x-request-id': _requestId,
    'x-ratelimit-remaining': _remaining,
    'x-ratelimit-reset': _reset,
    ...headers
  } = response.headers;
  const body = response.body.replace(/"requestId":"[^"]*"/g, '"requestId":""');
  return { status: response.statusCode, headers, body };
};

type ByIdRoute = { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string; body?: unknown };

describe('another tenant’s ids answer exactly like ids that do not exist', () => {
  let stranger: Browser;
  const ids = { seller: 0, integration: 0, recipient: 0, job: 0, user: 0, tenant: 0 };

  beforeAll(async () => {
    const owner = await signUp(world, { name: 'oracle-owner' });
    const tenantId = await companyFor(world, owner, { name: 'Oracle Owner Co' });
    const sellerId = await sellerOf(world, tenantId, { companyName: 'Oracle Books' });
    const recipientId = await recipientOf(world, { tenantId, sellerId, userId: owner.session.user.Id });
    const integrationId = await googleAccountOf(world, tenantId);
    const asked = await owner.browser.post(`/api/sellers/${sellerId}/reports/weekly`, {
      recipientIds: [recipientId],
    });
    const [job] = JobsResponse.parse(asked.json()).jobs;
    Object.assign(ids, {
      seller: sellerId,
      integration: integrationId,
      recipient: recipientId,
      job: job?.Id ?? 0,
      user: owner.session.user.Id,
      tenant: tenantId,
    });

    const other = await signUp(world, { name: 'oracle-stranger' });
    await companyFor(world, other, { name: 'Oracle Stranger Co' });
    stranger = other.browser;
  });

  const routes: [string, (id: number) => ByIdRoute][] = [
    ['GET seller', (id) => ({ method: 'GET', path: `/api/sellers/${id}` })],
    ['PUT seller', (id) => ({ method: 'PUT', path: `/api/sellers/${id}`, body: { Active: false } })],
    ['DELETE seller', (id) => ({ method: 'DELETE', path: `/api/sellers/${id}` })],
    ['disconnect seller', (id) => ({ method: 'POST', path: `/api/sellers/${id}/disconnect`, body: {} })],
    ['GET seller report', (id) => ({ method: 'GET', path: `/api/sellers/${id}/reports/weekly` })],
    [
      'POST seller report',
      (id) => ({ method: 'POST', path: `/api/sellers/${id}/reports/weekly`, body: { recipientIds: [1] } }),
    ],
    ['GET integration', (id) => ({ method: 'GET', path: `/api/integrations/${id}` })],
    [
      'PATCH integration',
      (id) => ({ method: 'PATCH', path: `/api/integrations/${id}`, body: { Active: false } }),
    ],
    [
      'disconnect integration',
      (id) => ({ method: 'POST', path: `/api/integrations/${id}/disconnect`, body: {} }),
    ],
    ['sync integration', (id) => ({ method: 'POST', path: `/api/integrations/${id}/sync`, body: {} })],
    ['DELETE integration', (id) => ({ method: 'DELETE', path: `/api/integrations/${id}` })],
    ['GET recipient', (id) => ({ method: 'GET', path: `/api/subscriptions/${id}` })],
    [
      'PATCH recipient',
      (id) => ({ method: 'PATCH', path: `/api/subscriptions/${id}`, body: { SendWeekly: false } }),
    ],
    ['DELETE recipient', (id) => ({ method: 'DELETE', path: `/api/subscriptions/${id}` })],
    ['GET job', (id) => ({ method: 'GET', path: `/api/jobs/${id}` })],
    ['GET user', (id) => ({ method: 'GET', path: `/api/users/${id}` })],
    ['PUT user', (id) => ({ method: 'PUT', path: `/api/users/${id}`, body: { JobTitle: 'Spy' } })],
    [
      'PUT user status',
      (id) => ({ method: 'PUT', path: `/api/users/${id}/status`, body: { Status: 'INACTIVE' } }),
    ],
    ['GET tenant', (id) => ({ method: 'GET', path: `/api/tenants/${id}` })],
    ['PUT tenant', (id) => ({ method: 'PUT', path: `/api/tenants/${id}`, body: { Name: 'Taken Over' } })],
    ['GET tenant customers', (id) => ({ method: 'GET', path: `/api/tenants/${id}/customers` })],
    ['GET tenant features', (id) => ({ method: 'GET', path: `/api/tenants/${id}/features` })],
  ];
  const entityOf = (name: string): keyof typeof ids => {
    if (name.includes('seller')) return 'seller';
    if (name.includes('integration')) return 'integration';
    if (name.includes('recipient')) return 'recipient';
    if (name.includes('job')) return 'job';
    if (name.includes('user')) return 'user';
    return 'tenant';
  };

  it.each(routes)('%s', async (name, route) => {
    const ask = ({ method, path, body }: ByIdRoute) =>
      stranger.request({ method, url: path, ...(body === undefined ? {} : { body }) });
    const theirs = await ask(route(ids[entityOf(name)]));
    const nobodys = await ask(route(missing.number));
    expect(theirs.statusCode).toBeGreaterThanOrEqual(400);
    expect(visible(theirs)).toEqual(visible(nobodys));
  });
});
