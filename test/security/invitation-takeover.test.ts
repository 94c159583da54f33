import { platformAdmin, strongPassword } from '../gateway/fixtures';
import { useGatewayWorld } from '../gateway/gateway-world';
import { httpBrowser, type HttpBrowser } from './http-browser';
import { listen, type RawClient } from './raw-http';

/**
 * Issue 12, point 2, end to end over HTTP as an outsider would do it: register, create a company,
 * invite the platform administrator's address, and use whatever the invite answer gives (as the old
 * link `/api/auth/invitation/<id>` and as the new acceptance `POST /api/auth/invitation/accept`) while
 * signed out. None of it may give a session of the administrator or put them in the company; even the
 * emailed link itself opens no session for an account that already exists.
 */
const world = useGatewayWorld(__filename);
let client: RawClient;
let admin: Awaited<ReturnType<typeof platformAdmin>>;

beforeAll(async () => {
  client = await listen(world.app, 4);
  admin = await platformAdmin(world);
});

afterAll(() => client?.close());

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const json = <T = Json>(body: string): T => JSON.parse(body) as T;

/** Every string an answer holds, however deep: each is a candidate id or token to the attacker. */
const stringsIn = (value: Json): string[] => {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
};

/** Who the browser is signed in as (null for nobody), and whether the gateway calls them a platform admin. */
const whoIs = async (browser: HttpBrowser) => {
  const self = await browser.get('/api/auth/self');
  if (self.status === 401) return null;
  const { user } = json<{ user: { Email: string; isPlatformAdmin: boolean } }>(self.body);
  return { status: self.status, email: user.Email, admin: user.isPlatformAdmin };
};

/** The companies the platform admin belongs to, read as the admin. */
const adminsCompanies = async (): Promise<number[]> => {
  await world.settle();
  const response = await admin.browser.get('/api/tenants');
  return response.json<{ tenants: { Id: number }[] }>().tenants.map((t) => t.Id);
};

/** The links of the invitation email MailDev received for `to` naming `companyName`, waiting up to 10 s. */
const invitationLinks = async (to: string, companyName: string): Promise<string[]> => {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const response = await fetch(`${world.config.MAILDEV_URL}/email`);
    const emails = (await response.json()) as { to: { address: string }[]; html: string }[];
    const found = emails.find(
      (e) => e.to.some((t) => t.address.toLowerCase() === to.toLowerCase()) && e.html.includes(companyName),
    );
    if (found)
      return [...found.html.matchAll(/href="([^"]+)"/g)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&'));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no invitation email to ${to} from ${companyName}`);
};

/** An attacker with a company of their own, signed in over HTTP. */
const attackerWithCompany = async () => {
  const attacker = httpBrowser(client);
  const email = world.email(`mallory${Math.random().toString(36).slice(2, 8)}`);
  const registered = await attacker.post('/api/auth/register', {
    givenName: 'Mallory',
    familyName: 'Tester',
    email,
    password: strongPassword,
  });
  expect([registered.status, registered.status === 200 ? '' : registered.body]).toEqual([200, '']);
  const companyName = `Mallory Co ${world.runId} ${Math.random().toString(36).slice(2, 8)}`;
  const company = await attacker.post('/api/tenants', {
    Name: companyName,
    Industry: { FreeForm: 'Retail' },
    BusinessModel: 'B2B',
  });
  expect([company.status, company.status === 201 ? '' : company.body]).toEqual([201, '']);
  const tenantId = json<{ Id: number }>(company.body).Id;
  const switched = await attacker.post('/api/auth/switchTenant', { tenantId });
  expect(switched.status).toBe(200);
  return { attacker, email, tenantId, companyName };
};

describe('the invitation takeover chain of issue 12', () => {
  it("gives the inviter of the platform admin's address neither the admin's session nor the admin in their company", async () => {
    const { attacker, email, tenantId } = await attackerWithCompany();

    const invite = await attacker.post('/api/auth/invite', {
      name: 'Admin',
      email: admin.email,
      role: 'ADMIN',
    });
    expect([invite.status, invite.status === 200 ? '' : invite.body]).toEqual([200, '']);
    const given = json(invite.body);
    const inviteId = json<{ Uuid: string }>(invite.body).Uuid;
    const candidates = [...new Set(stringsIn(given))];

    // Signed out, in a fresh browser, as the issue describes; then in the attacker's own browser.
    const stranger = httpBrowser(client);
    for (const browser of [stranger, attacker]) {
      for (const candidate of candidates) {
        await browser.get(`/api/auth/invitation/${encodeURIComponent(candidate)}`);
        await browser.post('/api/auth/invitation/accept', { inviteId, token: candidate });
      }
      await browser.post(`/api/auth/invitation/${encodeURIComponent(inviteId)}`, {});
    }

    expect(await whoIs(stranger)).toBeNull();
    expect(await whoIs(attacker)).toEqual({ status: 200, email, admin: false });
    expect(await adminsCompanies()).not.toContain(tenantId);
  });

  it('opens no session for the existing admin account even with the emailed link', async () => {
    const { attacker, tenantId, companyName } = await attackerWithCompany();
    const invite = await attacker.post('/api/auth/invite', {
      name: 'Admin',
      email: admin.email,
      role: 'ADMIN',
    });
    expect(invite.status).toBe(200);
    const links = await invitationLinks(admin.email, companyName);
    const link = links.find((l) => /invit/i.test(l));
    if (!link) throw new Error(`no invitation link in: ${links.join(' ')}`);
    const url = new URL(link);
    const fragment = new URLSearchParams(url.hash.slice(1));
    const token = fragment.get('token') ?? url.searchParams.get('token');

    // The inviter never sees the credential the email holds.
    if (token) expect(invite.body).not.toContain(token);

    const stranger = httpBrowser(client);
    const opened = url.pathname.startsWith('/api/')
      ? await stranger.get(`${url.pathname}${url.search}`)
      : await stranger.post('/api/auth/invitation/accept', { inviteId: fragment.get('invite'), token });
    expect(opened.status).toBeLessThan(500);
    expect(await whoIs(stranger)).toBeNull();
    expect(await adminsCompanies()).not.toContain(tenantId);
  });
});
