import { JobsResponse } from '../../contracts/api/jobs';
import { tenantStream } from '../../contracts/stream-ids';
import { systemActor } from '../../domain/actor';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import { JOBS } from '../../projections/jobs/jobs-projection';
import { sellerOf } from './admin-fixtures';
import { platformAdmin } from './fixtures';
import { useGatewayWorld } from './gateway-world';

/** What `bash scripts/schemathesis.sh` found in the API (issue 12: the fuzzer still finds no fault). */
const world = useGatewayWorld(__filename);

/** The value at a local JSON pointer (`#/components/schemas/X`), or undefined. */
const resolve = (document: unknown, ref: string): unknown =>
  ref
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>(
      (node, part) =>
        node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined,
      document,
    );

const refsIn = (node: unknown): string[] => {
  if (Array.isArray(node)) return node.flatMap(refsIn);
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === '$ref' && typeof value === 'string' ? [value] : refsIn(value),
  );
};

describe('the OpenAPI document', () => {
  it('defines every schema it refers to (JSON values of jobs and browser state were a dangling schema0)', async () => {
    const response = await world.app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
    const document = response.json<unknown>();
    const refs = [...new Set(refsIn(document))];

    expect(refs).toContain('#/components/schemas/JsonValue');
    expect(refs.filter((ref) => !ref.startsWith('#/') || resolve(document, ref) === undefined)).toEqual([]);
  });
});

describe('POST /api/tasks while the jobs read model is behind', () => {
  it('answers the demo seller’s new sync job at once, not an empty list after waiting for it', async () => {
    const admin = await platformAdmin(world);
    const demoTenant = 970_101;
    await world.run(tenantDecider, tenantStream(demoTenant), {
      type: 'CreateTenant',
      data: { tenantId: demoTenant, name: 'Demo Client', classification: 'BUSINESS', usageType: 'DEMO' },
      now: world.clock.now(),
      actor: systemActor,
    });
    const demoSeller = await sellerOf(world, demoTenant, { companyName: 'Demo Books', provider: 'DEMO' });
    await world.settle();

    const jobs = await world.pauseProjection(JOBS);
    try {
      const response = await admin.browser.post('/api/tasks', { name: 'update_demo_seller' });
      expect(response.statusCode).toBe(200);
      expect(JobsResponse.parse(response.json()).jobs).toEqual([
        expect.objectContaining({
          Kind: 'sync',
          Type: 'update_demo_seller',
          Status: 'created',
          TenantId: demoTenant,
          SellerId: demoSeller,
        }),
      ]);
    } finally {
      jobs.resume();
    }
  });
});
