import { ClientUsersResponse, ClientsResponse } from '../../contracts/api/clients';
import { Tenant } from '../../contracts/api/tenants';
import { ErrorResponse } from '../../contracts/errors';
import { useGatewayWorld } from './gateway-world';
import { companyFor } from './fixtures';
import { joinAs, person } from './team-fixtures';

const world = useGatewayWorld(__filename);

let count = 0;

/** An advisory firm whose advisor has added the given clients through the API. */
const firmWithClients = async (names: string[]) => {
  count += 1;
  const advisor = await person(world, {
    name: `advisor${count}`,
    givenName: 'Ada',
    familyName: `Advisor${count}`,
  });
  const firmId = await companyFor(world, advisor, { name: `Firm ${count}`, classification: 'FIRM' });
  const clients: Record<string, number> = {};
  for (const name of names) {
    const created = await advisor.browser.post('/api/tenants', {
      Name: name,
      Industry: { FreeForm: 'Retail' },
      BusinessModel: 'B2B',
    });
    if (created.statusCode !== 201) throw new Error(`create ${name}: ${created.statusCode} ${created.body}`);
    clients[name] = Tenant.parse(created.json()).Id;
  }
  return { advisor, firmId, clients };
};

describe('GET /api/clients', () => {
  it('lists the advisor’s clients by name with Demo Client last, searchable', async () => {
    const { advisor } = await firmWithClients(['Zephyr Foods', 'Demo Client', 'Acme Tools']);
    const response = await advisor.browser.get('/api/clients');
    expect(response.statusCode).toBe(200);
    const { clients } = ClientsResponse.parse(response.json());
    // The advisor's own firm is listed among them, as the clients read model has it.
    expect(clients.map((c) => c.Name)).toEqual([
      'Acme Tools',
      `Firm ${count}`,
      'Zephyr Foods',
      'Demo Client',
    ]);
    expect(clients[0]).toMatchObject({ Access: true, Role: 'Administrator', Platforms: [], isDemo: false });
    expect(clients[3]?.isDemo).toBe(true);

    const searched = ClientsResponse.parse((await advisor.browser.get('/api/clients?search=zeph')).json());
    expect(searched.clients.map((c) => c.Name)).toEqual(['Zephyr Foods']);
    const connected = ClientsResponse.parse(
      (await advisor.browser.get('/api/clients?hasPlatforms=true')).json(),
    );
    expect(connected.clients).toEqual([]);
  });

  it('is for advisors only; each advisor sees their own clients; bad filters are 422', async () => {
    const { advisor } = await firmWithClients(['Only Mine']);
    const other = await firmWithClients([]);
    const theirs = ClientsResponse.parse((await other.advisor.browser.get('/api/clients')).json());
    expect(theirs.clients.map((c) => c.Name)).toEqual([`Firm ${count}`]);

    const owner = await person(world, { name: `owner${count}` });
    await companyFor(world, owner, { name: `Business ${count}` });
    expect((await owner.browser.get('/api/clients')).statusCode).toBe(403);
    expect((await world.browser().get('/api/clients')).statusCode).toBe(401);

    const bad = await advisor.browser.get('/api/clients?platform=FAX&hasPlatforms=perhaps');
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(ErrorResponse.parse(bad.json()).properties ?? {})).toEqual(
      expect.arrayContaining(['platform', 'hasPlatforms']),
    );
  });
});

describe('GET /api/clients/users', () => {
  it('lists the users across the advisor’s clients with their role', async () => {
    const { advisor, clients } = await firmWithClients(['Beta Bakery']);
    const staff = await person(world, {
      name: `staff${count}`,
      givenName: 'Sam',
      familyName: `Staff${count}`,
    });
    const clientId = clients['Beta Bakery'] ?? 0;
    await joinAs(world, staff, { tenantId: clientId, role: 'USER' });
    const response = await advisor.browser.get('/api/clients/users');
    expect(response.statusCode).toBe(200);
    const { users } = ClientUsersResponse.parse(response.json());
    expect(users.map((u) => [u.Client.Name, u.User.Name, u.Role])).toEqual([
      ['Beta Bakery', `Ada Advisor${count}`, 'Advisor'],
      ['Beta Bakery', `Sam Staff${count}`, 'User'],
      [`Firm ${count}`, `Ada Advisor${count}`, 'Advisor'],
    ]);
    expect(users[1]?.Email).toBe(staff.email);

    // A plain member of the client is no advisor.
    expect((await staff.browser.get('/api/clients/users')).statusCode).toBe(403);
  });
});
