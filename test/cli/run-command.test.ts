import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { SellersResponse } from '../../contracts/api/sellers';
import { SessionResponse } from '../../contracts/auth';
import { isolatedNames, testConfig } from '../harness/isolation';

/**
 * Issue 5: "the demo tenant is present and synced after the README's run command". Starts
 * `ledgerwise all` (what scripts/run.sh runs once the servers are up) on its own ports, database, data
 * folder and queue prefixes, signs in as the seeded demo user, and waits for the Demo Client's DEMO
 * seller to complete its first sync and metrics.
 */
jest.setTimeout(300_000);

const names = isolatedNames(__filename);
const dataDir = mkdtempSync(join(tmpdir(), 'lw-run-command-'));
let app: ChildProcess | undefined;
let output = '';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

afterAll(async () => {
  if (app?.pid) {
    const exited = new Promise((resolve) => app?.once('exit', resolve));
    process.kill(-app.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  }
  const client = await MongoClient.connect(testConfig(names).MONGO_URL);
  await client.db().dropDatabase();
  await client.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the run command', () => {
  it('starts every process with the demo tenant, whose DEMO seller is synced', async () => {
    const [gateway, projector, worker, analytics] = await Promise.all([1, 2, 3, 4].map(() => freePort()));
    const config = testConfig(names);
    const base = `http://127.0.0.1:${gateway}`;
    app = spawn(process.execPath, ['--import', 'tsx', 'cli/ledgerwise.ts', 'all', '--no-infra'], {
      cwd: join(__dirname, '..', '..'),
      detached: true,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        MONGO_URL: config.MONGO_URL,
        TEMPORAL_TASK_QUEUE_PREFIX: config.TEMPORAL_TASK_QUEUE_PREFIX,
        KAFKA_TOPIC_PREFIX: config.KAFKA_TOPIC_PREFIX,
        GATEWAY_PORT: String(gateway),
        PROJECTOR_HEALTH_PORT: String(projector),
        WORKER_HEALTH_PORT: String(worker),
        ANALYTICS_HEALTH_PORT: String(analytics),
        PUBLIC_URL: base,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    app.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    app.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    for (let i = 0; i < 240 && !output.includes('Ledgerwise is running'); i += 1) {
      if (app.exitCode !== null) throw new Error(`ledgerwise all exited:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(output).toContain('demo@ledgerwise.local');

    // Sign in as the demo user, as the README says.
    let cookie = '';
    const remember = (response: Response) => {
      const jar = new Map(
        cookie
          .split('; ')
          .filter(Boolean)
          .map((pair) => pair.split('=') as [string, string]),
      );
      for (const line of response.headers.getSetCookie()) {
        const [name = '', value = ''] = (line.split(';')[0] ?? '').split('=');
        jar.set(name, value);
      }
      cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    };
    const token = await fetch(`${base}/api/auth/token`);
    remember(token);
    const { csrfToken } = (await token.json()) as { csrfToken: string };
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@ledgerwise.local', password: config.SEED_ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    remember(login);
    const session = SessionResponse.parse(await login.json());
    expect(session.tenant).toMatchObject({ Name: 'Demo Client', UsageType: 'DEMO' });

    let progress: string | undefined;
    for (let i = 0; i < 480 && progress !== 'completed'; i += 1) {
      const sellers = SellersResponse.parse(
        await (await fetch(`${base}/api/sellers`, { headers: { cookie } })).json(),
      );
      progress = sellers.rows.find((seller) => seller.Provider === 'DEMO')?.Progress;
      if (progress !== 'completed') await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(progress).toBe('completed');
  });
});
