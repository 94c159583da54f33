import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { failureTypes, userFailure } from '../../workflows/connectors/shared/connector-failure';
import type { PlatformHttp } from '../../workflows/connectors/shared/platform-http';
import type { CrmConnector, CrmPush } from '../../workflows/integrations/crm/crm-connector';
import {
  activeCampaignMarkerOf,
  createActiveCampaignConnector,
} from '../../workflows/integrations/active-campaign/active-campaign-connector';
import { pinnedFetch } from '../../workflows/integrations/active-campaign/pinned-fetch';
import {
  activeCampaignFixture,
  startActiveCampaignFake,
  type ActiveCampaignFake,
} from '../fakes/active-campaign-fake';

/**
 * The ActiveCampaign connector against the local fake account (ADR 48): limit and offset paging with
 * the account links, idempotent notes, accounts and contacts, remove, a refused key, throttling; and
 * the pinned fetch that keeps a typed-in URL on the addresses its check found.
 */

let fake: ActiveCampaignFake;
const KEY = 'ac-fake-key-1';
beforeAll(async () => {
  fake = await startActiveCampaignFake();
  fake.apiKeys.add(KEY);
  fake.load(activeCampaignFixture('account.json'));
  fake.load({
    contacts: Array.from({ length: 230 }, (_, i) => ({
      id: String(5000 + i),
      email: `lead${i}@leads.example`,
      firstName: `Lead${i}`,
      lastName: 'Person',
    })),
  });
});
afterAll(() => fake.close());

const http: PlatformHttp = {
  platform: 'ActiveCampaign',
  maxRetryWaitMs: 120_000,
  sleep: () => Promise.resolve(),
};

/** Keys the token holder was told were refused (core's holder marks the account INVALID then). */
const rejected: string[] = [];

const connector = (apiKey = KEY): CrmConnector =>
  createActiveCampaignConnector({
    http,
    apiBaseUrl: fake.url,
    tokens: {
      current: () => Promise.resolve({ accessToken: apiKey, instanceUrl: 'https://acme.api-us1.com' }),
      renewAfterRejection: (key) => {
        rejected.push(key);
        return Promise.reject(
          userFailure('ActiveCampaign refused the API key (marked invalid).', failureTypes.revoked),
        );
      },
    },
  });

const accountNamed = (name: string) => fake.records('accounts').find((a) => a.name === name)!;

describe('reading an account', () => {
  it('pages contacts by offset with their accounts, and accounts with their website and owner', async () => {
    const ac = connector();
    const contacts = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await ac.readContacts({ cursor, pageSize: 100, accountingIdentifier: null });
      contacts.push(...page.records);
      if (pages === 0) expect(page.total).toBe(235);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(contacts.map((c) => c.crmId)).size).toBe(235);
    expect(contacts.find((c) => c.crmId === '12')).toEqual({
      crmId: '12',
      companyCrmIds: ['1'],
      email: 'cfo@acme.example',
      firstName: 'Li',
      lastName: 'Wei',
      ownerCrmId: null,
    });
    const accounts = await ac.readCompanies({ cursor: null, pageSize: 100, accountingIdentifier: null });
    expect(accounts.nextCursor).toBeNull();
    expect(accounts.records.find((a) => a.crmId === '1')).toEqual({
      crmId: '1',
      name: 'Acme, Inc.',
      accountingId: null,
      domain: 'acme.example',
      ownerCrmId: '1',
      updatedAt: '2026-01-04T16:00:00.000Z',
    });
    expect(await ac.readOwners()).toEqual([{ crmId: '1', email: 'ada@acme.example', name: 'Ada Admin' }]);
    expect(await ac.check()).toEqual({ accountName: 'acme.api-us1.com' });
  });
});

describe('the account URL as people paste it', () => {
  it('calls the same API with or without a trailing slash or /api/3', async () => {
    for (const pasted of [`${fake.url}/`, `${fake.url}/api/3`, `${fake.url}/api/3/`]) {
      const ac = createActiveCampaignConnector({
        http,
        apiBaseUrl: pasted,
        tokens: {
          current: () => Promise.resolve({ accessToken: KEY, instanceUrl: null }),
          renewAfterRejection: () => Promise.reject(new Error('not called')),
        },
      });
      expect(await ac.check()).toEqual({ accountName: null });
    }
  });
});

describe('pushing idempotently', () => {
  it('adds a segment change as one note on the account, however often it is pushed', async () => {
    const ac = connector();
    const push: CrmPush = {
      kind: 'segmentChange',
      key: 'segment:acme:2026-02-03',
      companyCrmId: '1',
      customerName: 'Acme, Inc.',
      from: 'Prompt',
      to: 'Late',
      changedAt: '2026-02-03T00:00:00.000Z',
    };
    const first = await ac.push(push);
    const again = await ac.push(push);
    expect(first).toMatchObject({ objectType: 'note', created: true });
    expect(again).toEqual({ ...first, created: false });
    const notes = fake.records('notes').filter((n) => n.relid === '1');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      reltype: 'CustomerAccount',
      note: `Payment behaviour of Acme, Inc. moved from Prompt to Late on 2026-02-03 (Ledgerwise).\n${activeCampaignMarkerOf('segment:acme:2026-02-03')}`,
    });
    await ac.remove(first);
    expect(fake.records('notes').filter((n) => n.relid === '1')).toHaveLength(0);
    await expect(ac.remove(first)).resolves.toBeUndefined();
  });

  it('finds an account by its unique name and a contact by email instead of making them twice', async () => {
    const ac = connector();
    const company: CrmPush = {
      kind: 'createCompany',
      key: 'company:42',
      name: 'Zeta Widgets LLC',
      accountingId: '42',
      accountingIdentifier: null,
      ownerCrmId: '1',
    };
    const made = await ac.push(company);
    expect(made.created).toBe(true);
    expect(await ac.push(company)).toEqual({ ...made, created: false });
    expect(fake.records('accounts').filter((a) => a.name === 'Zeta Widgets LLC')).toHaveLength(1);
    expect(await ac.push({ ...company, key: 'company:1', name: 'acme, inc.' })).toEqual({
      objectType: 'company',
      crmId: accountNamed('Acme, Inc.').id,
      created: false,
    });

    const contact: CrmPush = {
      kind: 'createContact',
      key: 'contact:42:ap',
      companyCrmId: made.crmId,
      email: 'ap@zeta.example',
      firstName: 'Zed',
      lastName: null,
    };
    const person = await ac.push(contact);
    expect(person.created).toBe(true);
    expect(await ac.push(contact)).toEqual({ ...person, created: false });
    expect(fake.records('contacts').filter((c) => c.email === 'ap@zeta.example')).toHaveLength(1);
    expect(fake.records('accountContacts').filter((l) => l.contact === person.crmId)).toEqual([
      expect.objectContaining({ account: made.crmId }),
    ]);

    // Purge: the contact and the account it made go; the links with them.
    await ac.remove(person);
    await ac.remove(made);
    expect(fake.records('accounts').some((a) => a.name === 'Zeta Widgets LLC')).toBe(false);
    expect(fake.records('accountContacts').some((l) => l.contact === person.crmId)).toBe(false);
  });

  it('says which pushes it cannot take', async () => {
    const ac = connector();
    expect([...ac.supports].sort()).toEqual([
      'createCompany',
      'createContact',
      'overdueInvoice',
      'segmentChange',
    ]);
    await expect(
      ac.push({ kind: 'salesRep', key: 'rep:1', companyCrmId: '1', salesRep: 'Ada' }),
    ).rejects.toMatchObject({ type: failureTypes.refused });
  });
});

describe('refusals and faults', () => {
  it('hands a refused key to the token holder, which fails the job for good', async () => {
    const read = connector('revoked-key').readCompanies({
      cursor: null,
      pageSize: 100,
      accountingIdentifier: null,
    });
    await expect(read).rejects.toMatchObject({ type: failureTypes.revoked, nonRetryable: true });
    expect(rejected).toEqual(['revoked-key']);
  });

  it('keeps the key when only a feature is refused, and says the plan may lack it', async () => {
    fake.forbiddenPaths.add('/api/3/accounts');
    try {
      const before = rejected.length;
      const read = connector().readCompanies({ cursor: null, pageSize: 100, accountingIdentifier: null });
      await expect(read).rejects.toMatchObject({ type: failureTypes.refused, nonRetryable: true });
      await expect(read).rejects.toThrow(/refused to let this key read \/accounts .*plan/);
      expect(rejected).toHaveLength(before);
    } finally {
      fake.forbiddenPaths.clear();
    }
  });

  it('waits out 429 and a 5xx burst', async () => {
    const ac = connector();
    fake.throttle(2, 0);
    fake.failNext(2, 502);
    expect(
      (await ac.readCompanies({ cursor: null, pageSize: 100, accountingIdentifier: null })).records.length,
    ).toBe(2);
  });
});

describe('the pinned fetch of a typed-in URL', () => {
  it('connects to the checked address whatever the name would resolve to, keeping the Host', async () => {
    const server = createServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ host: request.headers.host, path: request.url }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const response = await pinnedFetch(['127.0.0.1'])(
        `http://account.pinned.invalid:${port}/api/3/users/me`,
        {
          headers: { 'api-token': 'k' },
        },
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        host: `account.pinned.invalid:${port}`,
        path: '/api/3/users/me',
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
