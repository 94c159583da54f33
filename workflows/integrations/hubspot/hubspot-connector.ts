import { failureTypes, userFailure } from '../../connectors/shared/connector-failure';
import {
  callPlatform,
  jsonOf,
  type PlatformHttp,
  type PlatformResponse,
} from '../../connectors/shared/platform-http';
import type {
  CrmCompany,
  CrmConnector,
  CrmContact,
  CrmCreatedObject,
  CrmOwner,
  CrmPush,
  CrmPushKind,
  CrmPushResult,
  CrmReadRequest,
} from '../crm/crm-connector';
import {
  HubSpotError,
  HubSpotObject,
  HubSpotObjectPage,
  HubSpotOwnerPage,
  HubSpotSearchAnswer,
  HubSpotTokenInfo,
} from './hubspot-formats';

/**
 * HubSpot (and HubSpot RevOps Pro) as a CrmConnector (docs/adr/0047-hubspot-connector.md), over
 * HubSpot's CRM v3 API: companies, contacts with their company associations and owners are read in
 * pages of up to 100 with HubSpot's `after` cursor; pushes are idempotent by key.
 *
 * - Companies, contacts, tasks and notes Ledgerwise creates carry the key in the `ledgerwise_key`
 *   property (made on first use, unique on companies and contacts): a push searches by it first and
 *   answers the object it finds instead of making a second one.
 * - Timeline events (RevOps Pro) use the key as HubSpot's event id, which HubSpot keeps unique per
 *   template: the same event twice is refused (409) and counts as already made.
 * - Property pushes (sales rep, RevOps properties, the accounting id link) read the company first and
 *   write only what differs.
 *
 * Plain HubSpot writes segment changes and overdue invoices as notes on the company; RevOps Pro writes
 * them as timeline events of the RevOps app and adds the revenue-operations property group.
 */

/** A valid access token for the integration account; the contract core implements (integration-tokens.ts). */
export type HubSpotAccessToken = {
  current: () => Promise<{ accessToken: string; instanceUrl: string | null }>;
  renewAfterRejection: (
    rejectedAccessToken: string,
  ) => Promise<{ accessToken: string; instanceUrl: string | null }>;
};

/** The RevOps Pro app's timeline event templates (made once in the app's developer account). */
export type HubSpotTimelineTemplates = { segmentChange: string; overdueInvoice: string };
export const HUBSPOT_TIMELINE_TEMPLATES: HubSpotTimelineTemplates = {
  segmentChange: '1340811',
  overdueInvoice: '1340812',
};

export type HubSpotConnectorDeps = {
  http: PlatformHttp;
  apiBaseUrl: string;
  tokens: HubSpotAccessToken;
  /** RevOps Pro (ProductIdentifier REVOPS): timeline events and the revenue-operations properties. */
  revops: boolean;
  timelineTemplates?: HubSpotTimelineTemplates;
};

export const HUBSPOT_NAME = 'HubSpot';
/** The property holding a push's key on every object Ledgerwise creates. */
export const HUBSPOT_KEY_PROPERTY = 'ledgerwise_key';
/** Where Ledgerwise's own company properties live (key, sales rep, an accounting id it had to create). */
export const HUBSPOT_GROUP = { name: 'ledgerwise', label: 'Ledgerwise' } as const;
/** RevOps Pro's revenue-operations properties. */
export const HUBSPOT_REVOPS_GROUP = {
  name: 'ledgerwise_revops',
  label: 'Revenue operations (Ledgerwise)',
} as const;
export const HUBSPOT_SALES_REP_PROPERTY = 'ledgerwise_sales_rep';

/** HubSpot-defined association types (category HUBSPOT_DEFINED). */
const association = { contactToCompanyPrimary: 1, noteToCompany: 190, taskToCompany: 192 } as const;

type ObjectType = 'companies' | 'contacts' | 'tasks' | 'notes';
const objectTypeOf: Record<'company' | 'contact' | 'task' | 'note', ObjectType> = {
  company: 'companies',
  contact: 'contacts',
  task: 'tasks',
  note: 'notes',
};

/** Which limit a 429 names, from HubSpot's rate-limit headers (the body says it too, but is not read here). */
export const hubSpotLimitName = (response: Response): string | null => {
  if (response.headers.get('x-hubspot-ratelimit-daily-remaining') === '0') return 'daily';
  if (response.headers.get('x-hubspot-ratelimit-remaining') === '0') return 'ten-second';
  return null;
};

/** A HubSpot property name from a free key: lower case letters, digits and underscores, a letter first. */
export const hubSpotPropertyName = (key: string) => {
  const name = key
    .trim()
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return /^[a-z]/.test(name) ? name : `p_${name}`;
};

/** HubSpot's event ids are free strings; a key too long or odd for one is shortened by hash. */
const eventIdOf = (key: string) => {
  if (/^[\w.:-]{1,120}$/.test(key)) return key;
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < key.length; i += 1) {
    h1 = Math.imul(h1 ^ key.charCodeAt(i), 16777619) >>> 0;
    h2 = Math.imul(h2 ^ key.charCodeAt(i), 2246822519) >>> 0;
  }
  return `lw-${key.replace(/[^\w.:-]+/g, '-').slice(0, 80)}-${h1.toString(16)}${h2.toString(16)}`;
};

/** A label for a property HubSpot shows: `ledgerwise_dso_days` -> `DSO days (Ledgerwise)`. */
export const propertyLabel = (key: string) => {
  const words = key
    .replace(/^ledgerwise_|^lw_/, '')
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((w) => (['dso', 'ar', 'id', '30d', '60d', '90d'].includes(w.toLowerCase()) ? w.toUpperCase() : w));
  const text = words.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)} (Ledgerwise)`;
};

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const moneyText = (cents: number, currency: string) =>
  `${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;

const problemOf = (response: PlatformResponse): string => {
  try {
    const parsed = HubSpotError.safeParse(JSON.parse(response.text));
    if (parsed.success && parsed.data.message) {
      const scopes = (parsed.data.errors ?? []).flatMap((e) => e.context?.requiredGrantedScopes ?? []);
      return scopes.length > 0
        ? `${parsed.data.message} Missing: ${scopes.join(', ')}.`
        : parsed.data.message;
    }
  } catch {
    // not JSON
  }
  return `HTTP ${response.status}`;
};

const blankToNull = (value: string | null | undefined) => {
  const text = value?.trim();
  return text ? text : null;
};

export const createHubSpotConnector = (deps: HubSpotConnectorDeps): CrmConnector => {
  const base = deps.apiBaseUrl.replace(/\/+$/, '');
  const http: PlatformHttp = { ...deps.http, limitName: deps.http.limitName ?? hubSpotLimitName };
  const templates = deps.timelineTemplates ?? HUBSPOT_TIMELINE_TEMPLATES;

  /** One call with the current token; a 401 renews it once and retries. 429 and 5xx: callPlatform. */
  const call = async (method: string, path: string, body?: unknown): Promise<PlatformResponse> => {
    let { accessToken } = await deps.tokens.current();
    for (let attempt = 0; ; attempt += 1) {
      const headers: Record<string, string> = {
        authorization: `Bearer ${accessToken}`,
        accept: 'application/json',
      };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await callPlatform(http, `${base}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (response.status === 401 && attempt === 0) {
        ({ accessToken } = await deps.tokens.renewAfterRejection(accessToken));
        continue;
      }
      if (response.status === 401)
        throw userFailure(
          `${HUBSPOT_NAME} refused our access even after renewing it (${problemOf(response)}). ` +
            'Reconnect HubSpot on the Integrations page.',
          failureTypes.revoked,
        );
      if (response.status === 403)
        throw userFailure(
          `${HUBSPOT_NAME} does not allow this connection to ${method === 'GET' ? 'read' : 'change'} ` +
            `${path.split('?')[0]} (${problemOf(response)}). Reconnect HubSpot and grant the access asked for.`,
          failureTypes.refused,
        );
      return response;
    }
  };

  /** The JSON of an answer with one of the expected statuses; anything else fails in HubSpot's words. */
  const expect = (response: PlatformResponse, what: string, ok: number[] = [200, 201]): unknown => {
    if (ok.includes(response.status)) return response.status === 204 ? null : jsonOf(HUBSPOT_NAME, response);
    if (response.status === 400 || response.status === 404 || response.status === 409)
      throw userFailure(`${HUBSPOT_NAME} refused to ${what}: ${problemOf(response)}`, failureTypes.refused);
    throw new Error(
      `${HUBSPOT_NAME} answered ${response.status} when asked to ${what}: ${problemOf(response)}`,
    );
  };

  // --- Properties and groups this connector needs, made when missing ------------------------
  const ensured = new Map<string, Promise<void>>();
  const once = (key: string, work: () => Promise<void>) => {
    let running = ensured.get(key);
    if (!running) {
      running = work().catch((error: unknown) => {
        ensured.delete(key);
        throw error;
      });
      ensured.set(key, running);
    }
    return running;
  };

  const ensureGroup = (type: ObjectType, group: { name: string; label: string }) =>
    once(`group:${type}:${group.name}`, async () => {
      const found = await call('GET', `/crm/v3/properties/${type}/groups/${group.name}`);
      if (found.status === 200) return;
      if (found.status !== 404) expect(found, `read the ${group.label} property group`);
      const made = await call('POST', `/crm/v3/properties/${type}/groups`, {
        name: group.name,
        label: group.label,
        displayOrder: -1,
      });
      // 409: made meanwhile by another worker.
      if (made.status !== 409) expect(made, `create the ${group.label} property group`);
    });

  type PropertySpec = {
    label: string;
    type: 'string' | 'number';
    group: { name: string; label: string };
    unique?: boolean;
    description?: string;
  };
  const ensureProperty = (type: ObjectType, name: string, spec: PropertySpec) =>
    once(`property:${type}:${name}`, async () => {
      const found = await call('GET', `/crm/v3/properties/${type}/${encodeURIComponent(name)}`);
      if (found.status === 200) return;
      if (found.status !== 404) expect(found, `read the ${name} property`);
      await ensureGroup(type, spec.group);
      const made = await call('POST', `/crm/v3/properties/${type}`, {
        name,
        label: spec.label,
        type: spec.type,
        fieldType: spec.type === 'number' ? 'number' : 'text',
        groupName: spec.group.name,
        description: spec.description ?? 'Written by Ledgerwise.',
        hasUniqueValue: spec.unique === true,
        formField: false,
      });
      if (made.status !== 409) expect(made, `create the ${name} property`);
    });

  const ensureKeyProperty = (type: ObjectType) =>
    ensureProperty(type, HUBSPOT_KEY_PROPERTY, {
      label: 'Ledgerwise key',
      type: 'string',
      group: HUBSPOT_GROUP,
      // HubSpot's search index trails writes by seconds: a unique key makes it refuse a duplicate
      // the search could not see yet. Activities take no unique properties.
      unique: type === 'companies' || type === 'contacts',
      description: 'Set by Ledgerwise on the records it creates, so it never creates one twice.',
    });

  const ensureAccountingProperty = (identifier: string) =>
    ensureProperty('companies', identifier, {
      label: 'Accounting ID',
      type: 'string',
      group: HUBSPOT_GROUP,
      description: "The customer's id in the accounting system, written by Ledgerwise.",
    });

  // --- Keyed objects --------------------------------------------------------------------------
  const findByKey = async (type: ObjectType, key: string): Promise<string | null> => {
    const answer = HubSpotSearchAnswer.parse(
      expect(
        await call('POST', `/crm/v3/objects/${type}/search`, {
          filterGroups: [{ filters: [{ propertyName: HUBSPOT_KEY_PROPERTY, operator: 'EQ', value: key }] }],
          properties: [HUBSPOT_KEY_PROPERTY],
          limit: 1,
        }),
        `search ${type}`,
        [200],
      ),
    );
    return answer.results[0]?.id ?? null;
  };

  const createKeyed = async ({
    type,
    key,
    properties,
    associations,
  }: {
    type: ObjectType;
    key: string;
    properties: Record<string, string>;
    associations: { to: string; typeId: number }[];
  }): Promise<{ crmId: string; created: boolean }> => {
    await ensureKeyProperty(type);
    const existing = await findByKey(type, key);
    if (existing) return { crmId: existing, created: false };
    const response = await call('POST', `/crm/v3/objects/${type}`, {
      properties: { ...properties, [HUBSPOT_KEY_PROPERTY]: key },
      associations: associations.map((a) => ({
        to: { id: a.to },
        types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: a.typeId }],
      })),
    });
    const problem = response.status === 201 || response.status === 200 ? null : problemOf(response);
    if (problem && response.status === 400 && /already has that value/i.test(problem))
      // Made by an earlier attempt the search index did not show yet: retried, the search finds it.
      throw new Error(
        `${HUBSPOT_NAME} has a ${type} record with key ${key} that its search does not show yet`,
      );
    return { crmId: HubSpotObject.parse(expect(response, `create a ${type} record`)).id, created: true };
  };

  const readCompanyProperties = async (companyCrmId: string, names: string[]) => {
    const query = new URLSearchParams({ properties: names.join(',') });
    const response = await call(
      'GET',
      `/crm/v3/objects/companies/${encodeURIComponent(companyCrmId)}?${query}`,
    );
    return HubSpotObject.parse(expect(response, `read company ${companyCrmId}`, [200])).properties;
  };

  const writeCompanyProperties = async (companyCrmId: string, values: Record<string, string>) =>
    expect(
      await call('PATCH', `/crm/v3/objects/companies/${encodeURIComponent(companyCrmId)}`, {
        properties: values,
      }),
      `update company ${companyCrmId}`,
      [200],
    );

  /**
   * Writes the values that differ from the company's; answers whether it wrote anything. Property
   * pushes answer `created: false` either way: a purge removes objects, not values (ADR 46); `remove`
   * of a property result still clears it, for a caller that wants that.
   */
  const syncCompanyProperties = async (
    companyCrmId: string,
    values: Record<string, string | number | null>,
  ): Promise<boolean> => {
    const current = await readCompanyProperties(companyCrmId, Object.keys(values));
    const changed: Record<string, string> = {};
    for (const [name, value] of Object.entries(values)) {
      const now = current[name] ?? '';
      const same = typeof value === 'number' ? now !== '' && Number(now) === value : (value ?? '') === now;
      if (!same) changed[name] = value === null ? '' : String(value);
    }
    if (Object.keys(changed).length === 0) return false;
    await writeCompanyProperties(companyCrmId, changed);
    return true;
  };

  // --- Timeline events (RevOps Pro) -----------------------------------------------------------
  const timelineEvent = async ({
    templateId,
    key,
    companyCrmId,
    tokens,
    timestamp,
  }: {
    templateId: string;
    key: string;
    companyCrmId: string;
    tokens: Record<string, string | number>;
    timestamp: string;
  }): Promise<CrmPushResult> => {
    const id = eventIdOf(key);
    const crmId = `${templateId}/${id}`;
    const found = await call(
      'GET',
      `/integrators/timeline/v3/events/${encodeURIComponent(templateId)}/${encodeURIComponent(id)}`,
    );
    if (found.status === 200) return { objectType: 'event', crmId, created: false };
    if (found.status !== 404) expect(found, 'read a timeline event', [200]);
    const made = await call('POST', '/integrators/timeline/v3/events', {
      eventTemplateId: templateId,
      id,
      objectId: companyCrmId,
      tokens,
      timestamp,
    });
    // HubSpot keeps event ids unique per template: a 409 is the same event made by an earlier attempt.
    if (made.status === 409) return { objectType: 'event', crmId, created: false };
    expect(made, 'add a timeline event', [200, 201, 204]);
    return { objectType: 'event', crmId, created: true };
  };

  const note = async (push: { key: string; companyCrmId: string }, html: string, at: Date) => {
    const made = await createKeyed({
      type: 'notes',
      key: push.key,
      properties: { hs_note_body: html, hs_timestamp: at.toISOString() },
      associations: [{ to: push.companyCrmId, typeId: association.noteToCompany }],
    });
    return { objectType: 'note', ...made } satisfies CrmPushResult;
  };

  const dateOf = (date: string) => new Date(date.length === 10 ? `${date}T00:00:00Z` : date);
  const dateMs = (date: string) => String(dateOf(date).getTime());
  /** When an invoice was found overdue: its due date plus the days overdue (the same on a retry). */
  const overdueAt = (dueDate: string, days: number) =>
    new Date(dateOf(dueDate).getTime() + days * 86_400_000);

  const push = async (request: CrmPush): Promise<CrmPushResult> => {
    switch (request.kind) {
      case 'createCompany': {
        const properties: Record<string, string> = { name: request.name };
        if (request.accountingIdentifier) {
          await ensureAccountingProperty(request.accountingIdentifier);
          properties[request.accountingIdentifier] = request.accountingId;
        }
        if (request.ownerCrmId) properties.hubspot_owner_id = request.ownerCrmId;
        const made = await createKeyed({ type: 'companies', key: request.key, properties, associations: [] });
        return { objectType: 'company', ...made };
      }
      case 'createContact': {
        const properties: Record<string, string> = { email: request.email };
        if (request.firstName) properties.firstname = request.firstName;
        if (request.lastName) properties.lastname = request.lastName;
        try {
          return {
            objectType: 'contact',
            ...(await createKeyed({
              type: 'contacts',
              key: request.key,
              properties,
              associations: [{ to: request.companyCrmId, typeId: association.contactToCompanyPrimary }],
            })),
          };
        } catch (error) {
          // HubSpot keeps one contact per email: the person is in the CRM already, not ours to purge.
          const existing = /Existing ID: (\d+)/.exec((error as Error).message)?.[1];
          if (existing) return { objectType: 'contact', crmId: existing, created: false };
          throw error;
        }
      }
      case 'linkCompany': {
        await ensureAccountingProperty(request.accountingIdentifier);
        await syncCompanyProperties(request.companyCrmId, {
          [request.accountingIdentifier]: request.accountingId,
        });
        // Not `created`: Unlink (unlinkCompany) clears it, a purge leaves the customer's link alone.
        return {
          objectType: 'property',
          crmId: `${request.companyCrmId}/${request.accountingIdentifier}`,
          created: false,
        };
      }
      case 'segmentChange': {
        if (deps.revops)
          return timelineEvent({
            templateId: templates.segmentChange,
            key: request.key,
            companyCrmId: request.companyCrmId,
            tokens: {
              customerName: request.customerName,
              fromSegment: request.from ?? 'none',
              toSegment: request.to,
              changedAt: dateMs(request.changedAt),
            },
            timestamp: dateOf(request.changedAt).toISOString(),
          });
        return note(
          request,
          `<p><strong>Payment segment changed</strong>: ${escapeHtml(request.customerName)} moved from ` +
            `${escapeHtml(request.from ?? 'none')} to ${escapeHtml(request.to)}.</p><p>Ledgerwise</p>`,
          dateOf(request.changedAt),
        );
      }
      case 'overdueInvoice': {
        if (deps.revops)
          return timelineEvent({
            templateId: templates.overdueInvoice,
            key: request.key,
            companyCrmId: request.companyCrmId,
            tokens: {
              invoiceNumber: request.invoiceNumber,
              dueDate: dateMs(request.dueDate),
              daysOverdue: request.daysOverdue,
              balance: request.balance.cents / 100,
              currency: request.balance.currency,
            },
            timestamp: overdueAt(request.dueDate, request.daysOverdue).toISOString(),
          });
        return note(
          request,
          `<p><strong>Invoice ${escapeHtml(request.invoiceNumber)} is ${request.daysOverdue} days overdue</strong>: ` +
            `${escapeHtml(moneyText(request.balance.cents, request.balance.currency))} was due on ` +
            `${escapeHtml(request.dueDate.slice(0, 10))}.</p><p>Ledgerwise</p>`,
          overdueAt(request.dueDate, request.daysOverdue),
        );
      }
      case 'collectionTask': {
        const properties: Record<string, string> = {
          hs_task_subject: request.subject,
          hs_task_body: request.body,
          hs_timestamp: new Date(request.dueAt).toISOString(),
          hs_task_status: 'NOT_STARTED',
          hs_task_type: 'TODO',
        };
        if (request.ownerCrmId) properties.hubspot_owner_id = request.ownerCrmId;
        return {
          objectType: 'task',
          ...(await createKeyed({
            type: 'tasks',
            key: request.key,
            properties,
            associations: [{ to: request.companyCrmId, typeId: association.taskToCompany }],
          })),
        };
      }
      case 'salesRep': {
        await ensureProperty('companies', HUBSPOT_SALES_REP_PROPERTY, {
          label: 'Sales rep (Ledgerwise)',
          type: 'string',
          group: HUBSPOT_GROUP,
          description: "The customer's sales rep in Ledgerwise.",
        });
        await syncCompanyProperties(request.companyCrmId, {
          [HUBSPOT_SALES_REP_PROPERTY]: request.salesRep,
        });
        return {
          objectType: 'property',
          crmId: `${request.companyCrmId}/${HUBSPOT_SALES_REP_PROPERTY}`,
          created: false,
        };
      }
      case 'revopsProperties': {
        if (!deps.revops)
          throw userFailure(
            'Revenue-operations properties are a HubSpot RevOps Pro feature; this connection is plain HubSpot.',
            failureTypes.refused,
          );
        const values: Record<string, string | number | null> = {};
        for (const [key, value] of Object.entries(request.properties)) {
          const name = hubSpotPropertyName(key);
          await ensureProperty('companies', name, {
            label: propertyLabel(key),
            type: typeof value === 'number' ? 'number' : 'string',
            group: HUBSPOT_REVOPS_GROUP,
            description: 'Revenue operations, written by Ledgerwise.',
          });
          values[name] = value;
        }
        await syncCompanyProperties(request.companyCrmId, values);
        return {
          objectType: 'property',
          crmId: `${request.companyCrmId}/${Object.keys(values).sort().join(',')}`,
          created: false,
        };
      }
    }
  };

  const supports = new Set<CrmPushKind>([
    'createCompany',
    'createContact',
    'linkCompany',
    'segmentChange',
    'overdueInvoice',
    'collectionTask',
    'salesRep',
    ...(deps.revops ? (['revopsProperties'] as const) : []),
  ]);

  return {
    supports,

    check: async () => {
      let { accessToken } = await deps.tokens.current();
      for (let attempt = 0; ; attempt += 1) {
        const response = await callPlatform(
          http,
          `${base}/oauth/v1/access-tokens/${encodeURIComponent(accessToken)}`,
          { method: 'GET', headers: { accept: 'application/json' } },
        );
        if (response.status === 200) {
          const info = HubSpotTokenInfo.parse(jsonOf(HUBSPOT_NAME, response));
          return { accountName: info.hub_domain ?? (info.hub_id ? `Hub ${info.hub_id}` : null) };
        }
        // An expired or unknown token: renew once, then it is the user's to reconnect.
        if ((response.status === 401 || response.status === 404) && attempt === 0) {
          ({ accessToken } = await deps.tokens.renewAfterRejection(accessToken));
          continue;
        }
        throw userFailure(
          `${HUBSPOT_NAME} does not accept this connection (${problemOf(response)}). Reconnect HubSpot.`,
          failureTypes.revoked,
        );
      }
    },

    readCompanies: async (request: CrmReadRequest) => {
      const identifier = request.accountingIdentifier?.trim() || null;
      const names = [
        'name',
        'domain',
        'hubspot_owner_id',
        'hs_lastmodifieddate',
        ...(identifier ? [identifier] : []),
      ];
      const query = new URLSearchParams({
        limit: String(Math.min(Math.max(request.pageSize, 1), 100)),
        properties: names.join(','),
        archived: 'false',
      });
      if (request.cursor) query.set('after', request.cursor);
      const page = HubSpotObjectPage.parse(
        expect(await call('GET', `/crm/v3/objects/companies?${query}`), 'list companies', [200]),
      );
      const records: CrmCompany[] = page.results.map((o) => ({
        crmId: o.id,
        name: o.properties.name?.trim() ?? '',
        accountingId: identifier ? blankToNull(o.properties[identifier]) : null,
        domain: blankToNull(o.properties.domain),
        ownerCrmId: blankToNull(o.properties.hubspot_owner_id),
        updatedAt: o.properties.hs_lastmodifieddate ?? o.updatedAt ?? null,
      }));
      return { records, nextCursor: page.paging?.next?.after ?? null, total: null };
    },

    readContacts: async (request: CrmReadRequest) => {
      const query = new URLSearchParams({
        limit: String(Math.min(Math.max(request.pageSize, 1), 100)),
        properties: 'email,firstname,lastname,hubspot_owner_id',
        associations: 'companies',
        archived: 'false',
      });
      if (request.cursor) query.set('after', request.cursor);
      const page = HubSpotObjectPage.parse(
        expect(await call('GET', `/crm/v3/objects/contacts?${query}`), 'list contacts', [200]),
      );
      const records: CrmContact[] = page.results.map((o) => {
        const links = o.associations?.companies?.results ?? [];
        // The primary company is labelled contact_to_company; it is listed again unlabeled.
        const primary = links.filter((l) => l.type === 'contact_to_company').map((l) => l.id);
        const companyCrmIds = [...new Set([...primary, ...links.map((l) => l.id)])];
        return {
          crmId: o.id,
          companyCrmIds,
          email: blankToNull(o.properties.email),
          firstName: blankToNull(o.properties.firstname),
          lastName: blankToNull(o.properties.lastname),
          ownerCrmId: blankToNull(o.properties.hubspot_owner_id),
        };
      });
      return { records, nextCursor: page.paging?.next?.after ?? null, total: null };
    },

    readOwners: async () => {
      const owners: CrmOwner[] = [];
      let after: string | null = null;
      do {
        const query = new URLSearchParams({ limit: '100', archived: 'false' });
        if (after) query.set('after', after);
        const page = HubSpotOwnerPage.parse(
          expect(await call('GET', `/crm/v3/owners?${query}`), 'list owners', [200]),
        );
        for (const o of page.results) {
          const name = [o.firstName, o.lastName].filter(Boolean).join(' ').trim();
          owners.push({ crmId: o.id, email: o.email ?? null, name: name || o.email || o.id });
        }
        after = page.paging?.next?.after ?? null;
      } while (after);
      return owners;
    },

    push,

    remove: async (object: CrmCreatedObject) => {
      if (object.objectType === 'event') return; // HubSpot keeps timeline events immutable (ADR 0047).
      if (object.objectType === 'property') {
        const [companyCrmId, names = ''] = object.crmId.split('/');
        const cleared = Object.fromEntries(
          names
            .split(',')
            .filter(Boolean)
            .map((n) => [n, '']),
        );
        if (!companyCrmId || Object.keys(cleared).length === 0) return;
        const response = await call(
          'PATCH',
          `/crm/v3/objects/companies/${encodeURIComponent(companyCrmId)}`,
          {
            properties: cleared,
          },
        );
        if (response.status === 404) return;
        expect(response, `clear ${names} on company ${companyCrmId}`, [200]);
        return;
      }
      const type = objectTypeOf[object.objectType];
      const response = await call('DELETE', `/crm/v3/objects/${type}/${encodeURIComponent(object.crmId)}`);
      if (response.status === 404) return; // already gone
      expect(response, `delete ${object.objectType} ${object.crmId}`, [200, 204]);
    },

    unlinkCompany: async (companyCrmId: string, accountingIdentifier: string) => {
      const response = await call('PATCH', `/crm/v3/objects/companies/${encodeURIComponent(companyCrmId)}`, {
        properties: { [accountingIdentifier]: '' },
      });
      if (response.status === 404) return; // the company is gone: nothing to clear
      // The property no longer exists: nothing holds the id either.
      if (response.status === 400 && /PROPERTY_DOESNT_EXIST|does not exist/.test(response.text)) return;
      expect(response, `clear ${accountingIdentifier} on company ${companyCrmId}`, [200]);
    },
  };
};
