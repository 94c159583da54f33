import { ApplicationFailure } from '@temporalio/common';
import { failureTypes, userFailure } from '../../workflows/connectors/shared/connector-failure';
import type { PlatformHttp } from '../../workflows/connectors/shared/platform-http';
import type { CrmConnector, CrmContact, CrmCompany } from '../../workflows/integrations/crm/crm-connector';
import {
  createHubSpotConnector,
  HUBSPOT_KEY_PROPERTY,
  HUBSPOT_REVOPS_GROUP,
  HUBSPOT_SALES_REP_PROPERTY,
  type HubSpotAccessToken,
} from '../../workflows/integrations/hubspot/hubspot-connector';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot-fake';

/**
 * The HubSpot connector against the local HubSpot fake: reads in pages with associations, waits out
 * 429s and 5xx, renews a rejected token once, surfaces a refused renewal, and keeps every push
 * idempotent by key (one company, contact, task, note or timeline event however often it is pushed).
 */

jest.setTimeout(60_000);

let fake: HubSpotFake;

beforeAll(async () => {
  fake = await startHubSpotFake();
  fake.setRateLimit(null);
});

afterAll(async () => {
  await fake.close();
});

/** Access as core's integration-tokens.ts gives it: refresh by HubSpot's form-field grant. */
const tokensFor = (clientId = 'hubspot-fake-client') => {
  const issued = fake.issueTokens({ clientId });
  let accessToken = issued.accessToken;
  let renewals = 0;
  const secret = clientId === 'revops-fake-client' ? 'revops-fake-secret' : 'hubspot-fake-secret';
  const tokens: HubSpotAccessToken = {
    current: () => Promise.resolve({ accessToken, instanceUrl: null }),
    renewAfterRejection: async (rejected) => {
      if (rejected !== accessToken) return { accessToken, instanceUrl: null };
      const response = await fetch(fake.configValues.OAUTH_HUBSPOT_TOKEN_URL!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: issued.refreshToken,
          client_id: clientId,
          client_secret: secret,
        }).toString(),
      });
      const body = (await response.json()) as { access_token?: string; error?: string };
      if (response.status === 400)
        throw userFailure(
          `HubSpot refused to renew our access (${body.error}). Reconnect HubSpot.`,
          failureTypes.revoked,
        );
      renewals += 1;
      accessToken = body.access_token!;
      return { accessToken, instanceUrl: null };
    },
  };
  return { tokens, renewals: () => renewals };
};

const httpFor = (): PlatformHttp => ({ platform: 'HubSpot', maxRetryWaitMs: 120_000, inlineWaitMs: 5_000 });

const connectorFor = (revops = false) => {
  const access = tokensFor(revops ? 'revops-fake-client' : 'hubspot-fake-client');
  const connector = createHubSpotConnector({
    http: httpFor(),
    apiBaseUrl: fake.url,
    tokens: access.tokens,
    revops,
  });
  return { connector, renewals: access.renewals };
};

const readAll = async <T>(
  read: (request: {
    cursor: string | null;
    pageSize: number;
    accountingIdentifier: string | null;
  }) => Promise<{
    records: T[];
    nextCursor: string | null;
  }>,
  pageSize: number,
) => {
  const records: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await read({ cursor, pageSize, accountingIdentifier: 'accounting_id' });
    records.push(...page.records);
    cursor = page.nextCursor;
    pages += 1;
  } while (cursor);
  return { records, pages };
};

const failureOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as ApplicationFailure;
  }
  throw new Error('expected a failure');
};

describe('reading HubSpot', () => {
  it('reads every company over several pages with its accounting id, domain and owner', async () => {
    const { connector } = connectorFor();
    const { records, pages } = await readAll<CrmCompany>(connector.readCompanies, 5);
    expect(pages).toBe(3);
    expect(records).toHaveLength(14);
    expect(new Set(records.map((c) => c.crmId)).size).toBe(14);
    const acme = records.find((c) => c.name === 'Acme, Inc.');
    expect(acme).toMatchObject({ accountingId: 'CUST-0001', domain: 'acme.example', ownerCrmId: '41629779' });
    expect(records.find((c) => c.name === 'Café Müller GmbH')).toMatchObject({ accountingId: null });
    expect(records.filter((c) => c.accountingId !== null).map((c) => c.accountingId)).toEqual([
      'CUST-0001',
      'CUST-0004',
      'CUST-0009',
      'CUST-0014',
    ]);
  });

  it('reads contacts with their companies, the primary one first', async () => {
    const { connector } = connectorFor();
    const { records } = await readAll<CrmContact>(connector.readContacts, 8);
    expect(records).toHaveLength(21);
    const laura = records.find((c) => c.email === 'laura.chen@acme.example');
    expect(laura).toMatchObject({ companyCrmIds: ['9840012301'], firstName: 'Laura', lastName: 'Chen' });
    // Oliver Smith works for Smith & Sons (primary) and Northwind Traders.
    const oliver = records.find((c) => c.firstName === 'Oliver');
    expect(oliver?.companyCrmIds).toEqual(['9840012322', '9840012357']);
    expect(records.find((c) => c.email === 'unattached@freemail.example')?.companyCrmIds).toEqual([]);
    expect(records.find((c) => c.firstName === 'Kenji')?.email).toBeNull();
  });

  it('reads the owners by name', async () => {
    const { connector } = connectorFor();
    const owners = await connector.readOwners();
    expect(owners).toEqual([
      { crmId: '41629779', email: 'maria.lopez@northbeam.example', name: 'María López' },
      { crmId: '41629780', email: 'james.okafor@northbeam.example', name: 'James Okafor' },
      { crmId: '41629781', email: 'ana.svensson@northbeam.example', name: 'Ana Svensson' },
    ]);
  });

  it('checks the connection and names the HubSpot account', async () => {
    const { connector } = connectorFor();
    await expect(connector.check()).resolves.toEqual({ accountName: 'northbeam-trading.example' });
  });
});

describe('HubSpot faults', () => {
  it('waits out a 429 with Retry-After and a burst of 5xx, then answers', async () => {
    const { connector } = connectorFor();
    const before = fake.counters().throttled;
    fake.throttle(2, 1);
    const started = Date.now();
    const page = await connector.readCompanies({ cursor: null, pageSize: 3, accountingIdentifier: null });
    expect(page.records).toHaveLength(3);
    expect(fake.counters().throttled - before).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    fake.failNext(2, 503);
    const again = await connector.readCompanies({ cursor: null, pageSize: 3, accountingIdentifier: null });
    expect(again.records.map((c) => c.crmId)).toEqual(page.records.map((c) => c.crmId));
  });

  it('fails in words when HubSpot asks for a wait longer than a sync sits through (daily limit)', async () => {
    const { connector } = connectorFor();
    fake.throttle(1, 6 * 3600, 'DAILY');
    const failure = await failureOf(connector.readOwners());
    expect(failure.type).toBe(failureTypes.limited);
    expect(failure.message).toMatch(/HubSpot is limiting how often we may call it \(its daily limit\)/);
    expect(failure.nonRetryable).toBe(true);
  });

  it('renews an expired access token once and carries on', async () => {
    const { connector, renewals } = connectorFor();
    const refreshes = fake.counters().refreshes;
    fake.expireAccessTokens();
    const page = await connector.readCompanies({ cursor: null, pageSize: 2, accountingIdentifier: null });
    expect(page.records).toHaveLength(2);
    expect(renewals()).toBe(1);
    expect(fake.counters().refreshes - refreshes).toBe(1);
    // The renewed token keeps working: no second renewal.
    await connector.readOwners();
    expect(renewals()).toBe(1);
  });

  it('surfaces a refused renewal as a failure the user must act on', async () => {
    const { connector } = connectorFor();
    fake.expireAccessTokens();
    fake.refuseRefresh();
    try {
      const failure = await failureOf(
        connector.readContacts({ cursor: null, pageSize: 5, accountingIdentifier: null }),
      );
      expect(failure).toBeInstanceOf(ApplicationFailure);
      expect(failure.type).toBe(failureTypes.revoked);
      expect(failure.message).toMatch(/invalid_grant.*Reconnect HubSpot/);
      const check = await failureOf(connector.check());
      expect(check.type).toBe(failureTypes.revoked);
    } finally {
      fake.refuseRefresh(false);
    }
  });
});

describe('pushing to HubSpot', () => {
  const acme = '9840012301';
  const contoso = '9840012364';

  it('creates a company once per key, with the key and accounting id properties made on first use', async () => {
    const { connector } = connectorFor();
    const push = {
      kind: 'createCompany' as const,
      key: 'company:t1:cust-77',
      name: 'Harbour Lights Ltd',
      accountingId: 'CUST-0077',
      accountingIdentifier: 'ledgerwise_accounting_id',
      ownerCrmId: '41629780',
    };
    const first = await connector.push(push);
    const second = await connector.push(push);
    expect(first).toEqual({ objectType: 'company', crmId: expect.any(String) as string, created: true });
    expect(second).toEqual({ ...first, created: false });
    const made = fake.created('companies').filter((c) => c.properties[HUBSPOT_KEY_PROPERTY] === push.key);
    expect(made).toHaveLength(1);
    expect(made[0]!.properties).toMatchObject({
      name: 'Harbour Lights Ltd',
      ledgerwise_accounting_id: 'CUST-0077',
      hubspot_owner_id: '41629780',
    });
    const key = fake.properties('companies').find((p) => p.name === HUBSPOT_KEY_PROPERTY);
    expect(key).toMatchObject({ groupName: 'ledgerwise', hasUniqueValue: true });
    // A second connector (another worker, a retried activity) finds it too.
    const { connector: other } = connectorFor();
    await expect(other.push(push)).resolves.toEqual({ ...first, created: false });
  });

  it('makes no duplicate while the search index has not seen the first company yet', async () => {
    const { connector } = connectorFor();
    const push = {
      kind: 'createCompany' as const,
      key: 'company:t1:lagging',
      name: 'Slow Index Pty Ltd',
      accountingId: 'CUST-0500',
      accountingIdentifier: null,
      ownerCrmId: null,
    };
    fake.setSearchLag(1_500);
    try {
      const first = await connector.push(push);
      expect(first.created).toBe(true);
      // The retry's search misses it; the unique key makes HubSpot refuse the duplicate, and the
      // failure stays retryable (a plain Error, not a user failure).
      const refused = await failureOf(connector.push(push));
      expect(refused).not.toBeInstanceOf(ApplicationFailure);
      expect(refused.message).toMatch(/search does not show yet/);
      await new Promise((resolve) => setTimeout(resolve, 1_600));
      await expect(connector.push(push)).resolves.toEqual({ ...first, created: false });
      expect(fake.created('companies').filter((c) => c.properties.name === push.name)).toHaveLength(1);
    } finally {
      fake.setSearchLag(0);
    }
  });

  it('creates a contact once, primary to its company, and never claims a person HubSpot already had', async () => {
    const { connector } = connectorFor();
    const push = {
      kind: 'createContact' as const,
      key: 'contact:t1:cust-1:ap',
      companyCrmId: acme,
      email: 'payables@acme.example',
      firstName: 'Accounts',
      lastName: 'Payable',
    };
    const first = await connector.push(push);
    expect(await connector.push(push)).toEqual({ ...first, created: false });
    expect(fake.object('contacts', first.crmId)?.associations).toEqual([
      { toType: 'companies', toId: acme, typeId: 1 },
    ]);
    const existing = await connector.push({
      ...push,
      key: 'contact:t1:cust-1:laura',
      email: 'laura.chen@acme.example',
    });
    expect(existing).toEqual({ objectType: 'contact', crmId: '751', created: false });
  });

  it('creates a collection task once per key, on the company, for its owner', async () => {
    const { connector } = connectorFor();
    const push = {
      kind: 'collectionTask' as const,
      key: 'task:t1:inv-1001:2024-06-01',
      companyCrmId: contoso,
      subject: 'Call Contoso about INV-1001',
      body: 'INV-1001 (1,250.00 USD) is 30 days overdue.',
      dueAt: '2024-06-03T09:00:00Z',
      ownerCrmId: '41629781',
    };
    const results = [await connector.push(push), await connector.push(push), await connector.push(push)];
    expect(results.map((r) => r.created)).toEqual([true, false, false]);
    const tasks = fake.created('tasks').filter((t) => t.properties[HUBSPOT_KEY_PROPERTY] === push.key);
    expect(tasks).toHaveLength(1);
    expect(tasks[0]!.properties).toMatchObject({
      hs_task_subject: 'Call Contoso about INV-1001',
      hs_task_status: 'NOT_STARTED',
      hs_timestamp: '2024-06-03T09:00:00.000Z',
      hubspot_owner_id: '41629781',
    });
    expect(tasks[0]!.associations).toEqual([{ toType: 'companies', toId: contoso, typeId: 192 }]);
  });

  it('plain HubSpot writes segment changes and overdue invoices as notes, once each', async () => {
    const { connector } = connectorFor();
    expect(connector.supports.has('revopsProperties')).toBe(false);
    const segment = {
      kind: 'segmentChange' as const,
      key: 'segment:t1:cust-1:2024-06-01',
      companyCrmId: acme,
      customerName: 'Acme, Inc.',
      from: 'Prompt',
      to: 'Slow',
      changedAt: '2024-06-01T00:00:00Z',
    };
    const overdue = {
      kind: 'overdueInvoice' as const,
      key: 'overdue:t1:inv-1001:30',
      companyCrmId: acme,
      invoiceNumber: 'INV-1001',
      dueDate: '2024-05-02',
      daysOverdue: 30,
      balance: { cents: 125_000, currency: 'USD' },
    };
    const events = fake.timelineEvents().length;
    for (const push of [segment, segment, overdue, overdue]) await connector.push(push);
    const notes = fake
      .created('notes')
      .filter((n) => [segment.key, overdue.key].includes(n.properties[HUBSPOT_KEY_PROPERTY]!));
    expect(notes).toHaveLength(2);
    expect(notes.map((n) => n.properties.hs_note_body)).toEqual([
      '<p><strong>Payment segment changed</strong>: Acme, Inc. moved from Prompt to Slow.</p><p>Ledgerwise</p>',
      '<p><strong>Invoice INV-1001 is 30 days overdue</strong>: 1,250.00 USD was due on 2024-05-02.</p><p>Ledgerwise</p>',
    ]);
    expect(notes.every((n) => n.associations[0]?.toId === acme && n.associations[0]?.typeId === 190)).toBe(
      true,
    );
    expect(fake.timelineEvents()).toHaveLength(events);
    await expect(
      connector.push({ kind: 'revopsProperties', key: 'r', companyCrmId: acme, properties: { dso: 1 } }),
    ).rejects.toThrow(/RevOps Pro feature/);
  });

  it('RevOps Pro writes them as timeline events keyed by the push, once each', async () => {
    const { connector } = connectorFor(true);
    const segment = {
      kind: 'segmentChange' as const,
      key: 'segment:t2:cust-9:2024-06-01',
      companyCrmId: contoso,
      customerName: 'Contoso Ltd',
      from: null,
      to: 'Late',
      changedAt: '2024-06-01T00:00:00Z',
    };
    const notes = fake.created('notes').length;
    const first = await connector.push(segment);
    expect(first).toEqual({ objectType: 'event', crmId: `1340811/${segment.key}`, created: true });
    expect(await connector.push(segment)).toEqual({ ...first, created: false });
    await connector.push({
      kind: 'overdueInvoice',
      key: 'overdue:t2:inv-7:45',
      companyCrmId: contoso,
      invoiceNumber: 'INV-7',
      dueDate: '2024-04-17',
      daysOverdue: 45,
      balance: { cents: 99_950, currency: 'EUR' },
    });
    const events = fake.timelineEvents().filter((e) => e.objectId === contoso);
    expect(events).toEqual([
      expect.objectContaining({
        id: segment.key,
        eventTemplateId: '1340811',
        tokens: {
          customerName: 'Contoso Ltd',
          fromSegment: 'none',
          toSegment: 'Late',
          changedAt: String(Date.parse('2024-06-01T00:00:00Z')),
        },
      }),
      expect.objectContaining({
        id: 'overdue:t2:inv-7:45',
        eventTemplateId: '1340812',
        timestamp: '2024-06-01T00:00:00.000Z',
        tokens: expect.objectContaining({
          invoiceNumber: 'INV-7',
          daysOverdue: '45',
          balance: '999.5',
          currency: 'EUR',
        }) as object,
      }),
    ]);
    expect(fake.created('notes')).toHaveLength(notes);
  });

  it('RevOps Pro turns a key with characters event ids avoid into one stable event id', async () => {
    const { connector } = connectorFor(true);
    const push = {
      kind: 'segmentChange' as const,
      key: 'lw:12:segmentChange:7:cust%2042#Low%20risk>High%20risk@2024-06-02',
      companyCrmId: contoso,
      customerName: 'Contoso Ltd',
      from: 'Low risk',
      to: 'High risk',
      changedAt: '2024-06-02T00:00:00Z',
    };
    const first = await connector.push(push);
    const { connector: other } = connectorFor(true);
    expect(await other.push(push)).toEqual({ ...first, created: false });
    const id = first.crmId.split('/')[1]!;
    expect(id).toMatch(/^lw-[\w.:-]+$/);
    expect(fake.timelineEvents().filter((e) => e.id === id)).toHaveLength(1);
  });

  it('RevOps Pro keeps its properties in their own group and writes only what changed', async () => {
    const { connector } = connectorFor(true);
    const push = {
      kind: 'revopsProperties' as const,
      key: 'revops:t2:cust-9',
      companyCrmId: contoso,
      properties: { lw_payment_segment: 'Late', lw_dso_days: 41.5, lw_overdue_balance: 2300, lw_note: null },
    };
    const before = fake.counters().updates.companies;
    const first = await connector.push(push);
    // A value, not an object: nothing for a purge to delete.
    expect(first).toEqual({
      objectType: 'property',
      crmId: `${contoso}/lw_dso_days,lw_note,lw_overdue_balance,lw_payment_segment`,
      created: false,
    });
    expect(fake.counters().updates.companies).toBe(before + 1);
    expect(fake.object('companies', contoso)?.properties).toMatchObject({
      lw_payment_segment: 'Late',
      lw_dso_days: '41.5',
      lw_overdue_balance: '2300',
    });
    expect(fake.propertyGroups('companies').map((g) => g.name)).toContain(HUBSPOT_REVOPS_GROUP.name);
    expect(fake.properties('companies').find((p) => p.name === 'lw_dso_days')).toMatchObject({
      label: 'DSO days (Ledgerwise)',
      type: 'number',
      groupName: HUBSPOT_REVOPS_GROUP.name,
    });
    const updates = fake.counters().updates.companies;
    await connector.push(push);
    expect(fake.counters().updates.companies).toBe(updates);
    await connector.push({ ...push, properties: { ...push.properties, lw_dso_days: 44 } });
    expect(fake.counters().updates.companies).toBe(updates + 1);
    expect(fake.object('companies', contoso)?.properties.lw_dso_days).toBe('44');
  });

  it('writes the sales rep only when it differs', async () => {
    const { connector } = connectorFor();
    const push = {
      kind: 'salesRep' as const,
      key: 'rep:t1:cust-1',
      companyCrmId: acme,
      salesRep: 'James Okafor',
    };
    const before = fake.counters().updates.companies;
    expect(await connector.push(push)).toEqual({
      objectType: 'property',
      crmId: `${acme}/${HUBSPOT_SALES_REP_PROPERTY}`,
      created: false,
    });
    expect(fake.counters().updates.companies).toBe(before + 1);
    await connector.push(push);
    expect(fake.counters().updates.companies).toBe(before + 1);
    expect(fake.object('companies', acme)?.properties[HUBSPOT_SALES_REP_PROPERTY]).toBe('James Okafor');
  });
});

describe('removing what Ledgerwise made', () => {
  it('deletes created objects, and a second delete of the same one is not an error', async () => {
    const { connector } = connectorFor();
    const task = await connector.push({
      kind: 'collectionTask',
      key: 'task:remove-me',
      companyCrmId: '9840012301',
      subject: 'Remove me',
      body: '',
      dueAt: '2024-07-01T00:00:00Z',
      ownerCrmId: null,
    });
    const company = await connector.push({
      kind: 'createCompany',
      key: 'company:remove-me',
      name: 'Short Lived LLC',
      accountingId: 'CUST-9999',
      accountingIdentifier: null,
      ownerCrmId: null,
    });
    await connector.remove({ objectType: 'task', crmId: task.crmId });
    await connector.remove({ objectType: 'company', crmId: company.crmId });
    expect(fake.object('tasks', task.crmId)).toBeNull();
    expect(fake.object('companies', company.crmId)).toBeNull();
    await expect(connector.remove({ objectType: 'task', crmId: task.crmId })).resolves.toBeUndefined();
    // The same key again makes a new task: the old one is gone.
    const again = await connector.push({
      kind: 'collectionTask',
      key: 'task:remove-me',
      companyCrmId: '9840012301',
      subject: 'Remove me',
      body: '',
      dueAt: '2024-07-01T00:00:00Z',
      ownerCrmId: null,
    });
    expect(again.created).toBe(true);
    expect(again.crmId).not.toBe(task.crmId);
  });

  it('clears the properties it wrote when they are removed', async () => {
    const { connector } = connectorFor();
    const rep = await connector.push({
      kind: 'salesRep',
      key: 'rep:t1:fabrikam',
      companyCrmId: '9840012371',
      salesRep: 'Ana Svensson',
    });
    await connector.remove(rep);
    expect(fake.object('companies', '9840012371')?.properties[HUBSPOT_SALES_REP_PROPERTY]).toBe('');
  });

  it('links a company by its accounting id and unlinks it again', async () => {
    const { connector } = connectorFor();
    const global = '9840012343'; // Global Widgets Ltd., no accounting id in HubSpot
    const link = await connector.push({
      kind: 'linkCompany',
      key: 'link:t1:cust-31',
      companyCrmId: global,
      accountingIdentifier: 'accounting_id',
      accountingId: 'CUST-0031',
    });
    expect(link).toEqual({ objectType: 'property', crmId: `${global}/accounting_id`, created: false });
    expect(fake.object('companies', global)?.properties.accounting_id).toBe('CUST-0031');
    const page = await connector.readCompanies({
      cursor: null,
      pageSize: 100,
      accountingIdentifier: 'accounting_id',
    });
    expect(page.records.find((c) => c.crmId === global)?.accountingId).toBe('CUST-0031');
    await connector.unlinkCompany(global, 'accounting_id');
    expect(fake.object('companies', global)?.properties.accounting_id).toBe('');
    const after = await connector.readCompanies({
      cursor: null,
      pageSize: 100,
      accountingIdentifier: 'accounting_id',
    });
    expect(after.records.find((c) => c.crmId === global)?.accountingId).toBeNull();
    // Unlinking a company that is gone, or by a property HubSpot no longer has, is not an error.
    await expect(connector.unlinkCompany('123', 'accounting_id')).resolves.toBeUndefined();
    await expect(connector.unlinkCompany(global, 'no_such_property')).resolves.toBeUndefined();
  });
});

describe('scopes', () => {
  it('reads with the read scopes, and a push without write scopes fails asking for a reconnect', async () => {
    const strict = await startHubSpotFake({ enforceScopes: true, rateLimit: null });
    try {
      // The scopes the gateway's plain HubSpot app asks for today (gateway/auth/connections.ts).
      const { accessToken } = strict.issueTokens({
        scopes: [
          'oauth',
          'crm.objects.contacts.read',
          'crm.objects.companies.read',
          'crm.objects.deals.read',
          'crm.objects.owners.read',
        ],
      });
      const connector = createHubSpotConnector({
        http: httpFor(),
        apiBaseUrl: strict.url,
        tokens: {
          current: () => Promise.resolve({ accessToken, instanceUrl: null }),
          renewAfterRejection: () => Promise.reject(new Error('no renewals here')),
        },
        revops: false,
      });
      await expect(connector.readOwners()).resolves.toHaveLength(3);
      const page = await connector.readContacts({ cursor: null, pageSize: 5, accountingIdentifier: null });
      expect(page.records).toHaveLength(5);
      const failure = await failureOf(
        connector.push({
          kind: 'collectionTask',
          key: 'task:no-scope',
          companyCrmId: '9840012301',
          subject: 'Call',
          body: '',
          dueAt: '2024-06-03T09:00:00Z',
          ownerCrmId: null,
        }),
      );
      expect(failure.type).toBe(failureTypes.refused);
      expect(failure.message).toMatch(
        /does not allow this connection to read \/crm\/v3\/properties\/tasks.*Missing: crm\.schemas\.contacts\.read\.\)\. Reconnect HubSpot/,
      );
      expect(strict.created('tasks')).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

describe('the generated portal (benchmark)', () => {
  it('serves N companies and M contacts by index, contact j in company j % N', async () => {
    const big = await startHubSpotFake({ companies: 250, contacts: 600 });
    try {
      big.setRateLimit(null);
      const connector: CrmConnector = createHubSpotConnector({
        http: httpFor(),
        apiBaseUrl: big.url,
        tokens: {
          current: () => Promise.resolve({ accessToken: big.issueTokens().accessToken, instanceUrl: null }),
          renewAfterRejection: () => Promise.reject(new Error('no renewals here')),
        },
        revops: false,
      });
      const companies = await readAll<CrmCompany>(connector.readCompanies, 100);
      const contacts = await readAll<CrmContact>(connector.readContacts, 100);
      expect(companies.records).toHaveLength(250);
      expect(companies.records.filter((c) => c.accountingId !== null)).toHaveLength(125);
      expect(contacts.records).toHaveLength(600);
      expect(contacts.records[251]!.companyCrmIds).toEqual([companies.records[1]!.crmId]);
    } finally {
      await big.close();
    }
  });
});
