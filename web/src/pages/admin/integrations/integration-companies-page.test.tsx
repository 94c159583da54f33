/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type {
  IntegrationCompaniesResponse,
  IntegrationResponse,
} from '../../../../../contracts/api/integrations';
import { defaultCrmSettings } from '../../../../../contracts/events/integration';
import { renderApp } from '../../../test-support/render-app';
import { sellerApi } from '../../sellers/seller-fixtures';

jest.setTimeout(30_000);

const account: IntegrationResponse = {
  Id: 5,
  TenantId: 7,
  Provider: 'HUBSPOT',
  ProductIdentifier: null,
  AuthMethod: 'oauth2',
  Active: true,
  CredentialsStatus: 'VALID',
  CredentialsProblem: null,
  CredentialsOwner: 'owner@example.test',
  URL: null,
  SyncDate: '2026-11-20T10:00:00.000Z',
  Settings: { ...defaultCrmSettings, Locked: false },
  Sync: { runningJobId: null, last: { jobId: 3, outcome: 'completed', failure: null } },
  Purge: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  disconnectedAt: null,
  Tenant: { Id: 7, Name: 'Acme Ltd' },
  Actions: ['sync', 'deactivate', 'disconnect'],
};

const summary = { Companies: 120, Contacts: 300, Owners: 2, MatchedCompanies: 2, LinkedCustomers: 3 };

const companies: IntegrationCompaniesResponse = {
  rows: [
    {
      CrmId: 'h-1',
      Name: 'ACME LLC',
      AccountingId: null,
      Domain: 'acme.example',
      OwnerCrmId: 'o1',
      Links: [{ SellerId: 41, CustomerId: '1', CustomerName: 'Acme, Inc.', Method: 'cleaned' }],
    },
    {
      CrmId: 'h-2',
      Name: 'Globex',
      AccountingId: 'G-2',
      Domain: null,
      OwnerCrmId: null,
      Links: [
        { SellerId: 41, CustomerId: '2', CustomerName: 'Globex', Method: 'accountingId' },
        { SellerId: 42, CustomerId: '9', CustomerName: null, Method: 'exact' },
      ],
    },
    { CrmId: 'h-3', Name: 'Initrode', AccountingId: null, Domain: null, OwnerCrmId: null, Links: [] },
  ],
  total: 120,
  filtered: 120,
  Summary: summary,
};

const api = () =>
  sellerApi({ platformAdmin: true })
    .on('GET /api/integrations', { body: { rows: [account], total: 1, filtered: 1 } })
    .on('GET /api/integrations/5/companies', { body: companies });

const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams.entries());

describe('the matched companies of a CRM account', () => {
  it("shows the mirror's counts in the expanded row, with the way to the matched companies", async () => {
    const fake = api();
    renderApp({ path: '/admin/integrations', fake });
    const table = await screen.findByRole('table', { name: 'Integrations' });
    const row = await within(table).findByRole('row', { name: /Acme Ltd/ });
    await userEvent.click(within(row).getByRole('button', { name: 'Details of HubSpot account 5' }));
    const records = await screen.findByRole('region', { name: 'CRM records of HubSpot account 5' });
    expect(await within(records).findByText('Companies: 120, Contacts: 300, Matched: 2')).toBeInTheDocument();
    expect(within(records).getByRole('link', { name: 'Matched companies' })).toHaveAttribute(
      'href',
      '/admin/integrations/5/companies',
    );
  });

  it("shows a running sync's live progress in the expanded row", async () => {
    const running = { ...account, Sync: { runningJobId: 12, last: null } };
    const fake = sellerApi({ platformAdmin: true })
      .on('GET /api/integrations', { body: { rows: [running], total: 1, filtered: 1 } })
      .on('GET /api/integrations/5/companies', { body: companies })
      .on('GET /api/jobs/12', {
        body: {
          Id: 12,
          Kind: 'sync',
          Type: 'sync',
          Status: 'running',
          TenantId: 7,
          SellerId: null,
          Parameters: { target: 'integration', integrationId: 5, action: 'sync' },
          WorkflowId: 'w-12',
          Progress: { stage: 'companies', done: 300, total: 1000, recordedAt: '2026-11-20T10:00:00.000Z' },
          Result: null,
          Failure: null,
          createdAt: '2026-11-20T09:59:00.000Z',
          startedAt: '2026-11-20T09:59:01.000Z',
          finishedAt: null,
        },
      });
    renderApp({ path: '/admin/integrations', fake });
    const table = await screen.findByRole('table', { name: 'Integrations' });
    const row = await within(table).findByRole('row', { name: /Acme Ltd/ });
    await userEvent.click(within(row).getByRole('button', { name: 'Details of HubSpot account 5' }));
    expect(await screen.findByText('Sync job 12: companies: 300 of 1000')).toBeInTheDocument();
  });

  it('lists each company with its linked customers, and filters on the server', async () => {
    const fake = api();
    renderApp({ path: '/admin/integrations/5/companies', fake });
    const table = await screen.findByRole('table', { name: 'Matched companies' });
    const globex = await within(table).findByRole('row', { name: /Globex/ });
    expect(within(globex).getByText('(seller 41, Accounting identifier)')).toBeInTheDocument();
    expect(within(globex).getByText('Customer 9')).toBeInTheDocument();
    const initrode = within(table).getByRole('row', { name: /Initrode/ });
    expect(within(initrode).getByText('Not matched')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Companies: 120, Contacts: 300, Matched companies: 2, Linked customers: 3, Filtered: 120',
      ),
    ).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText('Links'), 'unmatched');
    await userEvent.selectOptions(screen.getByLabelText('Method'), 'cleaned');
    await waitFor(() =>
      expect(
        fake.callsTo('GET /api/integrations/5/companies').map((call) => queryOf(call.url)),
      ).toContainEqual({
        filter: 'unmatched',
        method: 'cleaned',
        offset: '0',
        limit: '50',
      }),
    );
  });
});
