import { SellerForecastsResponse } from '../../contracts/api/forecasts';
import { SellersResponse } from '../../contracts/api/sellers';
import { SessionResponse } from '../../contracts/auth';
import { startLedgerwise, type LedgerwiseProcess } from '../harness/ledgerwise-process';

/**
 * Issue 5: "the demo tenant is present and synced after the README's run command". Starts
 * `ledgerwise all` (what scripts/run.sh runs once the servers are up) on its own ports, database, data
 * folder and queue prefixes, signs in as the seeded demo user, and waits for the Demo Client's DEMO
 * seller to complete its first sync and metrics, then for its first forecasts.
 */
jest.setTimeout(300_000);

let app: LedgerwiseProcess | undefined;

afterAll(async () => {
  await app?.stop();
});

describe('the run command', () => {
  it('starts every process with the demo tenant, whose DEMO seller is synced', async () => {
    app = await startLedgerwise(__filename);
    const { base, config } = app;
    expect(app.output()).toContain('demo@ledgerwise.local');

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
    let sellerId: number | undefined;
    for (let i = 0; i < 480 && progress !== 'completed'; i += 1) {
      const sellers = SellersResponse.parse(
        await (await fetch(`${base}/api/sellers`, { headers: { cookie } })).json(),
      );
      const demo = sellers.rows.find((seller) => seller.Provider === 'DEMO');
      ({ Progress: progress, Id: sellerId } = demo ?? {});
      if (progress !== 'completed') await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(progress).toBe('completed');

    // The demo shows forecasts without an admin step: the seed turns forecasting on, and a forecast
    // follows the metrics of the first sync.
    let forecasts: SellerForecastsResponse | undefined;
    for (let i = 0; i < 480 && !(forecasts?.revenue.weekly && forecasts.collections); i += 1) {
      const response = await fetch(`${base}/api/forecasts/sellers/${sellerId}`, { headers: { cookie } });
      forecasts = SellerForecastsResponse.parse(await response.json());
      if (!(forecasts.revenue.weekly && forecasts.collections))
        await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(forecasts?.enabled).toBe(true);
    expect(forecasts?.revenue.weekly?.points).toHaveLength(13);
    expect(forecasts?.collections?.weeks).toHaveLength(13);
  });
});
