import { ApplicationFailure } from '@temporalio/common';
import { failureTypes, userFailure } from '../../workflows/connectors/shared/connector-failure';
import type { PlatformHttp } from '../../workflows/connectors/shared/platform-http';
import type { CrmPush } from '../../workflows/integrations/crm/crm-connector';
import {
  createSalesforceConnector,
  markerOf,
  type SalesforceConnector,
} from '../../workflows/integrations/salesforce/salesforce-connector';
import type { SalesforceAccessToken } from '../../workflows/integrations/salesforce/salesforce-client';
import {
  generatedSalesforceOrg,
  salesforceFixture,
  startSalesforceFake,
  type SalesforceFake,
} from '../fakes/salesforce-fake';

/**
 * The Salesforce connector against the local fake org (ADR 48): SOQL paging with nextRecordsUrl and
 * a lapsed locator, idempotent pushes with and without the external id field, sObject Collections,
 * remove and unlink, a 401 renewed once, a refused refresh, throttling and the daily limit.
 */

let fake: SalesforceFake;
beforeAll(async () => {
  fake = await startSalesforceFake();
  fake.load('User', salesforceFixture('users.json'));
  fake.load('Account', salesforceFixture('accounts.json'));
  fake.load('Contact', salesforceFixture('contacts.json'));
  const generated = generatedSalesforceOrg({ accounts: 444, contactsPerAccount: 1 });
  fake.load('Account', generated.accounts);
  fake.load('Contact', generated.contacts);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.setKeyField(true);
  fake.refuseRefresh(false);
});

const http: PlatformHttp = {
  platform: 'Salesforce',
  maxRetryWaitMs: 120_000,
  sleep: () => Promise.resolve(),
};

/** The account's tokens as core's IntegrationAccessToken gives them: renewed at the fake's endpoint. */
const tokensFor = (issued: { accessToken: string; refreshToken: string; instanceUrl: string }) => {
  let current = { accessToken: issued.accessToken, instanceUrl: issued.instanceUrl as string | null };
  const tokens: SalesforceAccessToken = {
    current: () => Promise.resolve(current),
    renewAfterRejection: async (rejected) => {
      if (rejected !== current.accessToken) return current;
      const response = await fetch(fake.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: issued.refreshToken,
          client_id: fake.configValues.OAUTH_SALESFORCE_CLIENT_ID!,
          client_secret: fake.configValues.OAUTH_SALESFORCE_CLIENT_SECRET!,
        }),
      });
      const body = (await response.json()) as Record<string, string>;
      if (response.status !== 200)
        throw userFailure(
          `Salesforce refused to renew our access (${body.error}). Reconnect Salesforce on the Platforms page.`,
          failureTypes.revoked,
        );
      current = { accessToken: body.access_token!, instanceUrl: body.instance_url ?? null };
      return current;
    },
  };
  return tokens;
};

const connector = (): SalesforceConnector =>
  createSalesforceConnector({
    http,
    apiBaseUrl: 'https://login.salesforce.invalid',
    apiVersion: 'v60.0',
    tokens: tokensFor(fake.issueTokens()),
  });

const readAll = async <T>(
  read: (request: {
    cursor: string | null;
    pageSize: number;
    accountingIdentifier: string | null;
  }) => Promise<{
    records: T[];
    nextCursor: string | null;
    total: number | null;
  }>,
  options: { pageSize: number; accountingIdentifier?: string | null; between?: (page: number) => void },
) => {
  const records: T[] = [];
  const totals: (number | null)[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await read({
      cursor,
      pageSize: options.pageSize,
      accountingIdentifier: options.accountingIdentifier ?? null,
    });
    records.push(...page.records);
    totals.push(page.total);
    cursor = page.nextCursor;
    pages += 1;
    options.between?.(pages);
  } while (cursor);
  return { records, pages, totals };
};

const accountFor = (name: string) => fake.records('Account').find((a) => a.Name === name)!;
const tasksAt = (accountId: string) => fake.records('Task').filter((t) => t.WhatId === accountId);

describe('reading an org', () => {
  it('pages Accounts with nextRecordsUrl, mapping owner, website, accounting id and awkward names', async () => {
    const sf = connector();
    const { records, pages, totals } = await readAll((r) => sf.readCompanies(r), {
      pageSize: 200,
      accountingIdentifier: 'AccountNumber',
    });
    expect(records).toHaveLength(450);
    expect(new Set(records.map((r) => r.crmId)).size).toBe(450);
    expect(pages).toBe(3);
    expect(totals[0]).toBe(450);
    const acme = records.find((r) => r.name === 'Acme, Inc.');
    expect(acme).toEqual({
      crmId: accountFor('Acme, Inc.').Id,
      name: 'Acme, Inc.',
      accountingId: 'C-1001',
      domain: 'acme.example',
      ownerCrmId: accountFor('Acme, Inc.').OwnerId,
      updatedAt: '2026-01-01T09:30:00.000Z',
    });
    expect(records.find((r) => r.name === 'Bäckerei Müller GmbH')).toMatchObject({
      accountingId: null,
      domain: 'baeckerei-mueller.example',
    });
    expect(records.find((r) => r.name === 'Northwind Traders LLC')?.domain).toBe('northwind.example');
    // Without an AccountingIdentifier the field is not read at all.
    const plain = await sf.readCompanies({ cursor: null, pageSize: 200, accountingIdentifier: null });
    expect(plain.records.every((r) => r.accountingId === null)).toBe(true);
  });

  it('resumes after the query locator lapsed, from the last Id read, without repeats or gaps', async () => {
    const sf = connector();
    const { records } = await readAll((r) => sf.readContacts(r), {
      pageSize: 200,
      between: (page) => page === 1 && fake.expireQueryLocators(),
    });
    expect(records).toHaveLength(449);
    expect(new Set(records.map((r) => r.crmId)).size).toBe(449);
    expect(records.find((c) => c.email === 'buchhaltung@baeckerei-mueller.example')).toMatchObject({
      firstName: 'Jürgen',
      lastName: 'Müller',
      companyCrmIds: [accountFor('Bäckerei Müller GmbH').Id],
    });
    expect(records.find((c) => c.lastName === 'Accounts Payable')?.email).toBeNull();
  });

  it('reads the active users as owners and the org name as the check', async () => {
    const sf = connector();
    const owners = await sf.readOwners();
    expect(owners.find((o) => o.email === 'maria.gomez@seller.example')?.name).toBe('Maria Gómez');
    expect(owners).toHaveLength(3);
    expect(await sf.check()).toEqual({ accountName: 'Fake Org Inc.' });
  });

  it('refuses an AccountingIdentifier that is not a field name, and one the org does not have', async () => {
    const sf = connector();
    await expect(
      sf.readCompanies({
        cursor: null,
        pageSize: 200,
        accountingIdentifier: "Name FROM User WHERE Name != ''",
      }),
    ).rejects.toThrow(/not a Salesforce field name/);
    const missing = sf.readCompanies({
      cursor: null,
      pageSize: 200,
      accountingIdentifier: 'Accounting_Id__c',
    });
    await expect(missing).rejects.toThrow(/INVALID_FIELD.*Accounting_Id__c/);
    await expect(missing).rejects.toMatchObject({ type: failureTypes.refused, nonRetryable: true });
  });
});

describe('pushing idempotently', () => {
  const segment = (key: string, accountId: string): CrmPush => ({
    kind: 'segmentChange',
    key,
    companyCrmId: accountId,
    customerName: 'Acme, Inc.',
    from: 'Prompt',
    to: 'Late',
    changedAt: '2026-02-03T00:00:00.000Z',
  });

  it('upserts by Ledgerwise_Key__c: a retried push leaves one Task and says it was not created', async () => {
    const sf = connector();
    const acme = accountFor('Acme, Inc.').Id;
    const before = tasksAt(acme).length;
    const first = await sf.push(segment('segment:acme:2026-02-03', acme));
    const again = await sf.push(segment('segment:acme:2026-02-03', acme));
    expect(first).toMatchObject({ objectType: 'event', created: true });
    expect(again).toEqual({ ...first, created: false });
    expect(tasksAt(acme)).toHaveLength(before + 1);
    expect(tasksAt(acme).find((t) => t.Id === first.crmId)).toMatchObject({
      Subject: 'Payment behaviour: Prompt → Late',
      Status: 'Completed',
      ActivityDate: '2026-02-03',
      Ledgerwise_Key__c: 'segment:acme:2026-02-03',
    });
  });

  it('without the key field, finds its own Task by the marker in the Subject and its Contact by email', async () => {
    fake.setKeyField(false);
    const sf = connector();
    const fabrikam = accountFor('Fabrikam').Id;
    const task: CrmPush = {
      kind: 'collectionTask',
      key: 'collect:fabrikam:INV-7',
      companyCrmId: fabrikam,
      subject: 'Call Fabrikam about INV-7',
      body: 'INV-7 is 45 days overdue.',
      dueAt: '2026-03-01T09:00:00.000Z',
      ownerCrmId: accountFor('Fabrikam').OwnerId as string,
    };
    const first = await sf.push(task);
    const again = await sf.push(task);
    expect(first.created).toBe(true);
    expect(again).toEqual({ ...first, created: false });
    const made = tasksAt(fabrikam);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({
      Subject: `Call Fabrikam about INV-7 [${markerOf('collect:fabrikam:INV-7')}]`,
      Status: 'Not Started',
      ActivityDate: '2026-03-01',
    });

    const contact: CrmPush = {
      kind: 'createContact',
      key: 'contact:fabrikam:ap',
      companyCrmId: fabrikam,
      email: 'ap@fabrikam.example',
      firstName: null,
      lastName: null,
    };
    const person = await sf.push(contact);
    expect(await sf.push(contact)).toEqual({ ...person, created: false });
    expect(fake.records('Contact').filter((c) => c.Email === 'ap@fabrikam.example')).toEqual([
      expect.objectContaining({ LastName: 'ap', AccountId: fabrikam }),
    ]);
  });

  it('without the key field, finds an Account by its exact name, quotes and all', async () => {
    fake.setKeyField(false);
    const sf = connector();
    const company = (name: string, key: string): CrmPush => ({
      kind: 'createCompany',
      key,
      name,
      accountingId: key,
      accountingIdentifier: null,
      ownerCrmId: null,
    });
    expect(await sf.push(company("O'Brien & Sons", 'company:obrien'))).toEqual({
      objectType: 'company',
      crmId: accountFor("O'Brien & Sons").Id,
      created: false,
    });
    const tricky = "Smith AND Jones' Bakery \\ Co";
    const made = await sf.push(company(tricky, 'company:smith'));
    expect(made.created).toBe(true);
    expect(await sf.push(company(tricky, 'company:smith'))).toEqual({ ...made, created: false });
    expect(fake.records('Account').filter((a) => a.Name === tricky)).toHaveLength(1);
  });

  it('writes 450 overdue-invoice events in collections of 200, and a retry of all of them adds none', async () => {
    const sf = connector();
    const contoso = accountFor('Contoso Ltd.').Id;
    const pushes: CrmPush[] = Array.from({ length: 450 }, (_, i) => ({
      kind: 'overdueInvoice',
      key: `overdue:contoso:INV-${i}:30`,
      companyCrmId: contoso,
      invoiceNumber: `INV-${i}`,
      dueDate: '2026-01-10T00:00:00.000Z',
      daysOverdue: 30,
      balance: { cents: 123456, currency: 'GBP' },
    }));
    const calls = () => fake.requests.filter((r) => r.path.includes('/composite/sobjects/Task/')).length;
    const before = calls();
    const results = await sf.pushMany(pushes);
    expect(calls() - before).toBe(3);
    expect(results.every((r) => r.created && r.objectType === 'event')).toBe(true);
    expect(tasksAt(contoso)).toHaveLength(450);
    expect(tasksAt(contoso)[0]).toMatchObject({
      Subject: 'Invoice INV-0 is 30 days overdue',
      Description: 'Invoice INV-0 was due on 2026-01-10; £1,234.56 is still open.',
      ActivityDate: '2026-02-09',
      Status: 'Completed',
    });
    const retried = await sf.pushMany(pushes);
    expect(retried.map((r) => r.crmId)).toEqual(results.map((r) => r.crmId));
    expect(retried.some((r) => r.created)).toBe(false);
    expect(tasksAt(contoso)).toHaveLength(450);

    // Purge: what it made goes, in collections, and a second purge finds it gone without failing.
    await sf.removeMany(results);
    expect(tasksAt(contoso)).toHaveLength(0);
    await expect(sf.removeMany(results)).resolves.toBeUndefined();
  });

  it('removes an object it made, and a second remove of the same object is not an error', async () => {
    const sf = connector();
    const obrien = accountFor("O'Brien & Sons").Id;
    const made = await sf.push(segment('segment:obrien:1', obrien));
    await sf.remove(made);
    expect(tasksAt(obrien)).toHaveLength(0);
    await expect(sf.remove(made)).resolves.toBeUndefined();
    await expect(sf.remove({ objectType: 'property', crmId: obrien })).resolves.toBeUndefined();
    expect(accountFor("O'Brien & Sons")).toBeDefined();
  });

  it('links a company by writing the accounting id, and unlink clears it', async () => {
    const sf = connector();
    const contoso = accountFor('Contoso Ltd.').Id;
    const link: CrmPush = {
      kind: 'linkCompany',
      key: 'link:contoso',
      companyCrmId: contoso,
      accountingIdentifier: 'AccountNumber',
      accountingId: 'C-1004',
    };
    expect(await sf.push(link)).toEqual({ objectType: 'property', crmId: contoso, created: false });
    expect(accountFor('Contoso Ltd.').AccountNumber).toBe('C-1004');
    await sf.unlinkCompany(contoso, 'AccountNumber');
    expect(accountFor('Contoso Ltd.').AccountNumber).toBeNull();
  });

  it('sets the Account owner to the sales rep when an active user has that name', async () => {
    const sf = connector();
    const acme = accountFor('Acme, Inc.');
    const tom = fake.records('User').find((u) => u.Name === 'Tom Baker')!.Id;
    await sf.push({ kind: 'salesRep', key: 'rep:acme', companyCrmId: acme.Id, salesRep: 'Tom Baker' });
    expect(accountFor('Acme, Inc.').OwnerId).toBe(tom);
    expect(sf.supports.has('revopsProperties')).toBe(false);
  });
});

describe('sessions, limits and faults', () => {
  it('grants tokens for an authorization code, naming this instance, and reads with them', async () => {
    const authorize = new URL(fake.configValues.OAUTH_SALESFORCE_AUTHORIZE_URL!);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: fake.configValues.OAUTH_SALESFORCE_CLIENT_ID!,
      redirect_uri: 'http://127.0.0.1:3000/api/connect/salesforce/callback',
      state: 'st-1',
    }).toString();
    const consent = await fetch(authorize, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location')!);
    expect(back.searchParams.get('state')).toBe('st-1');
    const exchange = () =>
      fetch(fake.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: back.searchParams.get('code')!,
          client_id: fake.configValues.OAUTH_SALESFORCE_CLIENT_ID!,
          client_secret: fake.configValues.OAUTH_SALESFORCE_CLIENT_SECRET!,
          redirect_uri: 'http://127.0.0.1:3000/api/connect/salesforce/callback',
        }),
      });
    const granted = await exchange();
    const tokens = (await granted.json()) as Record<string, string>;
    expect(tokens).toMatchObject({ instance_url: fake.instanceUrl, token_type: 'Bearer' });
    // A code works once.
    expect((await exchange()).status).toBe(400);
    const sf = createSalesforceConnector({
      http,
      apiBaseUrl: '',
      tokens: tokensFor({
        accessToken: tokens.access_token!,
        refreshToken: tokens.refresh_token!,
        instanceUrl: tokens.instance_url!,
      }),
    });
    expect(await sf.check()).toEqual({ accountName: 'Fake Org Inc.' });
  });

  it('renews an expired session once and carries on', async () => {
    const sf = connector();
    const refreshes = fake.refreshes();
    fake.expireAccessTokens();
    const page = await sf.readCompanies({ cursor: null, pageSize: 200, accountingIdentifier: null });
    expect(page.records).toHaveLength(200);
    expect(fake.refreshes()).toBe(refreshes + 1);
  });

  it('asks for a reconnect when the stored tokens name no instance', async () => {
    const sf = createSalesforceConnector({
      http,
      apiBaseUrl: '',
      tokens: {
        current: () => Promise.resolve({ accessToken: 'token', instanceUrl: null }),
        renewAfterRejection: () => Promise.reject(new Error('not called')),
      },
    });
    const read = sf.check();
    await expect(read).rejects.toMatchObject({ type: failureTypes.noCredentials, nonRetryable: true });
    await expect(read).rejects.toThrow(/no Salesforce instance URL/);
  });

  it('fails in words, not retryable, when Salesforce refuses to renew', async () => {
    const sf = connector();
    fake.expireAccessTokens();
    fake.refuseRefresh();
    const read = sf.readCompanies({ cursor: null, pageSize: 200, accountingIdentifier: null });
    await expect(read).rejects.toBeInstanceOf(ApplicationFailure);
    await expect(read).rejects.toMatchObject({ type: failureTypes.revoked, nonRetryable: true });
    await expect(read).rejects.toThrow(/refused to renew our access \(invalid_grant\)/);
  });

  it('waits out 429 and a 5xx burst, and stops in words when the daily allowance is spent', async () => {
    const sf = connector();
    fake.throttle(2, 0);
    expect((await sf.check()).accountName).toBe('Fake Org Inc.');
    fake.failNext(2, 503);
    expect((await sf.check()).accountName).toBe('Fake Org Inc.');
    fake.exceedLimit(1, 'TotalRequests');
    const spent = sf.check();
    await expect(spent).rejects.toMatchObject({ type: failureTypes.limited, nonRetryable: true });
    await expect(spent).rejects.toThrow(/daily API request allowance/);
    fake.exceedLimit(1, 'ConcurrentPerOrgLongTxn');
    await expect(sf.check()).rejects.toMatchObject({ type: 'ConnectorThrottled', nonRetryable: false });
  });
});
