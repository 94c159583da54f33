import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callPlatform } from '../../../workflows/connectors/shared/platform-http';
import type {
  CrmCompany,
  CrmConnector,
  CrmContact,
  CrmOwner,
  CrmPage,
  CrmPush,
  CrmPushKind,
  CrmPushResult,
} from '../../../workflows/integrations/crm/crm-connector';
import type { CrmConnectorDeps } from '../../../workflows/integrations/crm/crm-connectors';

/**
 * A small CRM for core's tests and benchmark while the providers' own fakes are being written: an
 * OAuth token endpoint (refresh grant, rotation, invalid_grant on demand), bearer-checked cursor
 * paging of owners, companies and contacts, and keyed creation of companies and contacts. Its
 * connector (`fakeCrmConnector`) speaks to it through platform-http as the real connectors do.
 */
export type FakeCrm = {
  url: string;
  companies: CrmCompany[];
  contacts: CrmContact[];
  owners: CrmOwner[];
  /** The access token the API accepts; anything else answers 401. */
  accessToken: string;
  refreshToken: string;
  refuseRefresh: boolean;
  /** Sent with every token answer (Salesforce's instance_url) when set. */
  instanceUrl: string | null;
  counts: { refreshes: number; pages: number; created: number; rejected: number };
  /** Objects made by key: a key pushed twice makes one object. */
  createdByKey: Map<string, string>;
  close: () => Promise<void>;
};

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

const bodyOf = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export const startFakeCrm = async (): Promise<FakeCrm> => {
  let tokenNumber = 1;
  const crm: Omit<FakeCrm, 'url' | 'close'> = {
    companies: [],
    contacts: [],
    owners: [],
    accessToken: 'access-1',
    refreshToken: 'refresh-1',
    refuseRefresh: false,
    instanceUrl: null,
    counts: { refreshes: 0, pages: 0, created: 0, rejected: 0 },
    createdByKey: new Map(),
  };
  const page = <T>(records: T[], url: URL) => {
    const offset = Number(url.searchParams.get('after') ?? '0');
    const limit = Number(url.searchParams.get('limit') ?? '100');
    const next = offset + limit < records.length ? String(offset + limit) : null;
    crm.counts.pages += 1;
    return { results: records.slice(offset, offset + limit), next, total: records.length };
  };
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const body = await bodyOf(request);
      if (url.pathname === '/oauth/token') {
        const form = new URLSearchParams(body);
        if (crm.refuseRefresh || form.get('refresh_token') !== crm.refreshToken)
          return json(response, 400, {
            error: 'invalid_grant',
            error_description: 'refresh token is invalid',
          });
        crm.counts.refreshes += 1;
        tokenNumber += 1;
        crm.accessToken = `access-${tokenNumber}`;
        crm.refreshToken = `refresh-${tokenNumber}`;
        return json(response, 200, {
          access_token: crm.accessToken,
          refresh_token: crm.refreshToken,
          expires_in: 1800,
          ...(crm.instanceUrl ? { instance_url: crm.instanceUrl } : {}),
        });
      }
      if (request.headers.authorization !== `Bearer ${crm.accessToken}`) {
        crm.counts.rejected += 1;
        return json(response, 401, { message: 'expired' });
      }
      if (request.method === 'GET' && url.pathname === '/owners')
        return json(response, 200, { results: crm.owners });
      if (request.method === 'GET' && url.pathname === '/companies')
        return json(response, 200, page(crm.companies, url));
      if (request.method === 'GET' && url.pathname === '/contacts')
        return json(response, 200, page(crm.contacts, url));
      if (request.method === 'POST' && (url.pathname === '/companies' || url.pathname === '/contacts')) {
        const push = JSON.parse(body) as CrmPush;
        let crmId = crm.createdByKey.get(push.key);
        if (!crmId) {
          crm.counts.created += 1;
          crmId = `made-${crm.counts.created}`;
          crm.createdByKey.set(push.key, crmId);
          if (push.kind === 'createCompany')
            crm.companies.push({
              crmId,
              name: push.name,
              accountingId: push.accountingIdentifier ? push.accountingId : null,
              domain: null,
              ownerCrmId: null,
              updatedAt: null,
            });
          return json(response, 201, { crmId, created: true });
        }
        return json(response, 200, { crmId, created: false });
      }
      return json(response, 404, { message: 'no such route' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(crm, {
    url,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
};

/** A CrmConnector over the fake, built the way the providers' factories are (CrmConnectorDeps). */
export const fakeCrmConnector = (deps: CrmConnectorDeps): CrmConnector => {
  const call = async (path: string, init: { method?: string; body?: string } = {}) => {
    let access = await deps.tokens.current();
    for (let attempt = 0; ; attempt += 1) {
      const base = access.instanceUrl ?? deps.apiBaseUrl;
      const response = await callPlatform(deps.http, `${base}${path}`, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${access.accessToken}`, 'content-type': 'application/json' },
        body: init.body,
      });
      if (response.status === 401 && attempt === 0) {
        access = await deps.tokens.renewAfterRejection(access.accessToken);
        continue;
      }
      if (response.status >= 400) throw new Error(`fake CRM answered ${response.status} on ${path}`);
      return JSON.parse(response.text) as unknown;
    }
  };
  const read =
    <T>(path: string) =>
    async (request: { cursor: string | null; pageSize: number }): Promise<CrmPage<T>> => {
      const query = new URLSearchParams({ limit: String(request.pageSize) });
      if (request.cursor) query.set('after', request.cursor);
      const answer = (await call(`${path}?${query.toString()}`)) as {
        results: T[];
        next: string | null;
        total: number;
      };
      return { records: answer.results, nextCursor: answer.next, total: answer.total };
    };
  const supports = new Set<CrmPushKind>(['createCompany', 'createContact']);
  return {
    check: async () => {
      await call('/owners');
      return { accountName: 'Fake CRM' };
    },
    readCompanies: read<CrmCompany>('/companies'),
    readContacts: read<CrmContact>('/contacts'),
    readOwners: async () => ((await call('/owners')) as { results: CrmOwner[] }).results,
    supports,
    push: async (push: CrmPush): Promise<CrmPushResult> => {
      const path = push.kind === 'createCompany' ? '/companies' : '/contacts';
      const answer = (await call(path, { method: 'POST', body: JSON.stringify(push) })) as {
        crmId: string;
        created: boolean;
      };
      return { objectType: push.kind === 'createCompany' ? 'company' : 'contact', ...answer };
    },
    remove: () => Promise.resolve(),
    unlinkCompany: () => Promise.resolve(),
  };
};
