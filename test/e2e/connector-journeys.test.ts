import type { Browser, Page } from 'playwright-core';
import { startLedgerwise, type LedgerwiseProcess } from '../harness/ledgerwise-process';
import {
  materializedCompany,
  startQuickBooksOnlineFake,
  type QuickBooksOnlineFake,
} from '../fakes/quickbooks-online-fake';
import { startLocalOAuthServer, type LocalOAuthServer } from '../oauth/local-oauth-server';
import { launchChromium, startJourney, type Journey } from './browser';
import {
  answerWelcome,
  emailedLink,
  eventually,
  registerThroughForm,
  signIn,
  uniqueEmail,
  watchTexts,
} from './journey-steps';

/**
 * Issue 16, part A, done means: a company admin connects QuickBooks Online through the redirect flow
 * (the local OAuth server behind the QBO fake's authorize and token endpoints), watches the first
 * sync run and the status text become "Last sync on ...", and when QuickBooks refuses to renew the
 * token the platforms page says "Authentication Revoked" and offers Reconnect, which clears it. `ledgerwise all`
 * runs with the QBO API and token URLs pointing at the fake; screenshots in test-results/e2e/.
 */
jest.setTimeout(900_000);

const realmId = '9130357766';
let fake: QuickBooksOnlineFake;
let oauth: LocalOAuthServer;
let app: LedgerwiseProcess;
let browser: Browser;
const journeys: Journey[] = [];

beforeAll(async () => {
  fake = await startQuickBooksOnlineFake();
  fake.addCompany(
    materializedCompany(realmId, { customers: 80, items: 10, invoices: 6000, creditMemos: 20 }),
  );
  // The product reads its configuration from the environment it is started with.
  const saved = { ...process.env };
  Object.assign(process.env, fake.configValues);
  try {
    [app, browser] = await Promise.all([startLedgerwise(__filename), launchChromium()]);
  } finally {
    for (const name of Object.keys(fake.configValues))
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
  }
  // Only now is the product's address known, which the OAuth server's redirect URIs need.
  oauth = await startLocalOAuthServer({ publicUrl: app.base });
  oauth.setRedirectExtras('QBO', { realmId });
  fake.setUpstream({
    authorizeUrl: `${oauth.issuer}/authorize`,
    tokenUrl: `${oauth.issuer}/token`,
    clientId: oauth.configValues.OAUTH_QBO_CLIENT_ID!,
    clientSecret: oauth.configValues.OAUTH_QBO_CLIENT_SECRET!,
  });
});

afterEach(async () => {
  await Promise.all(journeys.splice(0).map((j) => j.close()));
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await oauth?.close();
  await fake?.close();
});

const connectedTable = (page: Page) => page.getByRole('table').first();

describe('connector journeys in a real browser', () => {
  it('connects QuickBooks Online by redirect, watches it sync, and sees Authentication Revoked when the token is refused', async () => {
    const j = startJourney(browser, { name: 'connect-qbo', base: app.base });
    journeys.push(j);
    const page = await j.person();
    const email = uniqueEmail('qbo-owner');
    await registerThroughForm(page, { givenName: 'Grace', familyName: 'Hopper', email });
    await page.getByRole('heading', { name: 'Welcome to Ledgerwise' }).waitFor();
    await page.goto(await emailedLink(app.config, { to: email, subject: /Confirm your email/ }));
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await answerWelcome(page, {
      name: 'Landscaping Co',
      industry: 'Landscaping',
      use: 'Managing my company',
    });

    await page.goto('/platforms');
    await j.shoot(page, 'platforms-before');
    await page.getByRole('link', { name: 'Connect QuickBooks Online' }).click();
    // Authorize (auto-consent) and the callback bring the browser back to the platforms page.
    await page.waitForURL(/\/platforms/);
    await page
      .getByText(/data is syncing|syncing/i)
      .first()
      .waitFor();
    await j.shoot(page, 'connected');
    await page.keyboard.press('Escape');

    // The status text as the person watches it: pending or syncing, then the day of the sync.
    const seen = await watchTexts(() => connectedTable(page).innerText(), {
      done: (text) => /Last sync on/.test(text),
      timeoutMs: 240_000,
    });
    expect(seen.some((text) => /Pending sync\.\.\.|Syncing/.test(text))).toBe(true);
    await j.shoot(page, 'synced');
    const sellerId = await page.evaluate(async () => {
      const list = (await (await fetch('/api/sellers')).json()) as {
        rows: { Id: number; Provider: string }[];
      };
      return list.rows.find((row) => row.Provider === 'QBO')?.Id ?? 0;
    });
    expect(sellerId).toBeGreaterThan(0);
    expect(fake.requests.some((r) => r.path === 'query' && r.status === 200)).toBe(true);

    // QuickBooks stops renewing the token (the user disconnected the app there); the next sync finds out.
    fake.expireAccessTokens();
    fake.refuseRefresh();
    const admin = await j.person();
    await signIn(admin, { email: 'admin@ledgerwise.local', password: app.config.SEED_ADMIN_PASSWORD });
    await admin.waitForURL((url) => !url.pathname.startsWith('/login'));
    const status = await admin.evaluate(async (id) => {
      const { csrfToken } = (await (await fetch('/api/auth/token')).json()) as { csrfToken: string };
      const answer = await fetch(`/api/sellers/${id}/sync`, {
        method: 'POST',
        headers: { 'x-csrf-token': csrfToken },
      });
      return answer.status;
    }, sellerId);
    expect(status).toBe(200);

    await eventually(
      async () => {
        await page.reload();
        return connectedTable(page).innerText();
      },
      (text) => expect(text).toContain('Authentication Revoked'),
      120_000,
    );
    const reconnect = connectedTable(page).getByRole('link', { name: 'Reconnect' });
    expect(await reconnect.getAttribute('href')).toBe('/api/connect/qbo');
    await j.shoot(page, 'revoked');

    // Connecting again (the same company, by realm id) clears it.
    fake.refuseRefresh(false);
    await reconnect.click();
    await page.waitForURL(/\/platforms/);
    await page.getByText('Your data is syncing now.').waitFor();
    await page.keyboard.press('Escape');
    await page.getByText('Your data is syncing now.').waitFor({ state: 'hidden' });
    await eventually(
      () => connectedTable(page).innerText(),
      (text) => {
        expect(text).not.toContain('Authentication Revoked');
        expect(text).toContain('Last sync on');
      },
      60_000,
    );
    await j.shoot(page, 'reconnected');
  });
});
