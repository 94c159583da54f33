import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverNamed } from '../../deploy/local/servers';

/**
 * A stripe-mock of its own for a test: the same binary as the local server (deploy/local/servers.ts),
 * started with the bundled fixtures (Stripe's OpenAPI fixtures, from the module the binary was built
 * from) where a test overrides some objects. The bundled ones do not make a ledger: the invoice is a
 * draft, the charge has no customer and the invoice payment names nothing; overridden, they make a
 * small set of books whose figures agree, still answered by the real server in Stripe's shapes.
 */

type Json = Record<string, unknown>;
export type StripeFixtureOverrides = Record<string, (bundled: Json) => Json>;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

const bundledFixtures = (version: string): { resources: Record<string, Json> } => {
  const cache = execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim();
  const path = join(
    cache,
    'github.com',
    'stripe',
    `stripe-mock@v${version}`,
    'embedded',
    'openapi',
    'fixtures3.json',
  );
  if (!existsSync(path))
    throw new Error(`stripe-mock's bundled fixtures are not at ${path}: run the local servers' provisioning`);
  return JSON.parse(readFileSync(path, 'utf8')) as { resources: Record<string, Json> };
};

export type StripeMockServer = { url: string; close: () => Promise<void> };

export const startStripeMock = async (overrides: StripeFixtureOverrides): Promise<StripeMockServer> => {
  const definition = serverNamed('stripe-mock');
  const fixtures = bundledFixtures(definition.version);
  for (const [resource, override] of Object.entries(overrides)) {
    const bundled = fixtures.resources[resource];
    if (!bundled) throw new Error(`stripe-mock has no fixture named ${resource}`);
    fixtures.resources[resource] = override(bundled);
  }
  const dir = mkdtempSync(join(tmpdir(), 'lw-stripe-mock-'));
  const file = join(dir, 'fixtures.json');
  writeFileSync(file, JSON.stringify(fixtures));
  const [http, https] = [await freePort(), await freePort()];
  const { command } = definition.command();
  const child: ChildProcess = spawn(
    command,
    ['-http-addr', `127.0.0.1:${http}`, '-https-addr', `127.0.0.1:${https}`, '-fixtures', file],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${http}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const response = await fetch(`${url}/v1/customers`, {
        headers: { authorization: 'Bearer sk_test_123' },
      });
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill();
      throw new Error('the test stripe-mock did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill();
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
