import { crmKindOf, debugFetch, redactedUrl } from './crm-connectors';

describe('which connector an account needs', () => {
  it.each([
    ['HUBSPOT', null, 'HUBSPOT'],
    ['HUBSPOT', 'REVOPS', 'REVOPS'],
    ['SALESFORCE', null, 'SALESFORCE'],
    ['ACTIVE_CAMPAIGN', null, 'ACTIVE_CAMPAIGN'],
    ['GOOGLE', null, null],
    ['WORKSPACE', null, null],
  ] as const)('%s %s -> %s', (provider, productIdentifier, kind) => {
    expect(crmKindOf({ provider, productIdentifier })).toBe(kind);
  });
});

describe('DebugRequests', () => {
  it('redacts secret query parameters and keeps the rest', () => {
    expect(redactedUrl('https://acme.api-us1.com/api/3/contacts?api_key=k-1&limit=100&access_token=t')).toBe(
      'https://acme.api-us1.com/api/3/contacts?api_key=%5Bredacted%5D&limit=100&access_token=%5Bredacted%5D',
    );
    expect(redactedUrl('not a url')).toBe('[unreadable url]');
  });

  it('logs method, redacted URL, status and time, never the headers or the body', async () => {
    const logged: Record<string, unknown>[] = [];
    const inner = () => Promise.resolve(new Response('{"results":[{"name":"Acme"}]}', { status: 200 }));
    const fetching = debugFetch(inner, (_message, details) => logged.push(details));
    const response = await fetching('https://api.crm.test/companies?token=secret-1&after=5', {
      method: 'POST',
      headers: { authorization: 'Bearer secret-2' },
      body: '{"name":"Acme"}',
    });
    expect(await response.text()).toContain('Acme');
    expect(logged).toEqual([
      {
        method: 'POST',
        url: 'https://api.crm.test/companies?token=%5Bredacted%5D&after=5',
        status: 200,
        ms: expect.any(Number) as number,
      },
    ]);
    expect(JSON.stringify(logged)).not.toMatch(/secret|Acme/);
  });
});
