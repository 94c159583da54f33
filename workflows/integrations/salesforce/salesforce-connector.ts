import { createHash } from 'node:crypto';
import { z } from 'zod';
import { failureTypes, userFailure } from '../../connectors/shared/connector-failure';
import { jsonOf, type PlatformResponse } from '../../connectors/shared/platform-http';
import type {
  CrmCompany,
  CrmConnector,
  CrmContact,
  CrmCreatedObject,
  CrmOwner,
  CrmPage,
  CrmPush,
  CrmPushKind,
  CrmPushResult,
  CrmReadRequest,
} from '../crm/crm-connector';
import {
  createSalesforceClient,
  errorsOf,
  salesforceFailure,
  SALESFORCE_NAME,
  soqlContains,
  soqlString,
  type SalesforceClientDeps,
} from './salesforce-client';

/**
 * Salesforce as a CRM (docs/adr/0048-salesforce-and-activecampaign.md). Reads are SOQL queries
 * ordered by Id, paged with the Query resource's nextRecordsUrl (a locator that expires after some
 * idle minutes: the cursor also keeps the last Id read, and a lapsed locator resumes with
 * `WHERE Id > last`). Pushes are idempotent by key: when the org has the external id field
 * Ledgerwise_Key__c on the object, an upsert by that field (PATCH /sobjects/Task/Ledgerwise_Key__c/key);
 * otherwise a SOQL lookup first (a `[lw:…]` marker in a Task's Subject; the accounting id, or the
 * name, of an Account; the email of a Contact at its Account). Events (segment changes, overdue
 * invoices) are completed Tasks on the Account, collection work an open Task.
 */
export type SalesforceConnectorDeps = SalesforceClientDeps;

/** The external id field an org may add to Account, Contact and Task for exact idempotency. */
export const SALESFORCE_KEY_FIELD = 'Ledgerwise_Key__c';

export const salesforceSupports: ReadonlySet<CrmPushKind> = new Set<CrmPushKind>([
  'createCompany',
  'createContact',
  'linkCompany',
  'segmentChange',
  'overdueInvoice',
  'collectionTask',
  'salesRep',
]);

const QueryResult = z.object({
  totalSize: z.number(),
  done: z.boolean(),
  nextRecordsUrl: z.string().optional(),
  records: z.array(z.record(z.string(), z.unknown())),
});
type Row = Record<string, unknown>;

const SaveResults = z.array(
  z.object({
    id: z.string().nullable().optional(),
    success: z.boolean(),
    created: z.boolean().optional(),
    errors: z
      .array(z.object({ statusCode: z.string().optional(), message: z.string().optional() }))
      .default([]),
  }),
);

/** An accounting id as text: AccountNumber is a string, a custom field may be a number. */
const idText = (value: unknown): string | null =>
  typeof value === 'string' || typeof value === 'number' ? String(value).trim() || null : null;

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** A field name fit to put in SOQL (the settings' AccountingIdentifier is typed by a person). */
const fieldName = (name: string) => {
  if (!/^[A-Za-z][A-Za-z0-9_]{0,79}$/.test(name))
    throw userFailure(
      `The CRM settings name the Salesforce field "${name}" for the accounting identifier, which is not ` +
        'a Salesforce field name (letters, digits and underscores, such as AccountNumber or Accounting_Id__c).',
      failureTypes.refused,
    );
  return name;
};

/** Salesforce's "2026-01-05T10:00:00.000+0000" as ISO 8601. */
const isoOf = (value: unknown): string | null => {
  const raw = text(value);
  if (!raw) return null;
  const at = Date.parse(raw.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
  return Number.isNaN(at) ? null : new Date(at).toISOString();
};

/** The host of a Website value, without www: "https://www.acme.example/about" -> "acme.example". */
export const domainOf = (website: unknown): string | null => {
  const raw = text(website)?.trim();
  if (!raw) return null;
  try {
    const host = new URL(
      /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`,
    ).hostname.toLowerCase();
    return host.replace(/^www\./, '') || null;
  } catch {
    return null;
  }
};

/** The key as the external id's value: itself when short and plain, else a digest of it. */
export const externalKeyOf = (key: string) =>
  /^[A-Za-z0-9:._-]{1,80}$/.test(key)
    ? key
    : `lw-${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;

/** The marker a Task's Subject carries when the org has no external id field. */
export const markerOf = (key: string) => `lw:${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;

const dateOnly = (iso: string) => iso.slice(0, 10);

const moneyText = (cents: number, currency: string) => {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
};

type SObject = 'Account' | 'Contact' | 'Task';
type Plan = {
  sobject: SObject;
  objectType: CrmPushResult['objectType'];
  fields: Row;
  /** Without the key field: where the marker goes (a Task's Subject) or how to find the record. */
  lookup: (marker: string) => string;
  /** Adds the marker to the fields when the org has no key field. */
  marked: (marker: string) => Row;
};

const subjectWith = (subject: string, marker: string | null) => {
  const tail = marker ? ` [${marker}]` : '';
  return `${subject.slice(0, 255 - tail.length)}${tail}`;
};

const typeOfObject: Record<CrmCreatedObject['objectType'], SObject | null> = {
  company: 'Account',
  contact: 'Contact',
  event: 'Task',
  task: 'Task',
  note: 'Task',
  property: null,
};

export type SalesforceConnector = CrmConnector & {
  /** Pushes of one kind in sObject Collections of up to 200 when the key field exists; else one by one. */
  pushMany: (pushes: CrmPush[]) => Promise<CrmPushResult[]>;
  /** Deletes in collections of up to 200; records already gone are not errors. */
  removeMany: (objects: CrmCreatedObject[]) => Promise<void>;
};

export const createSalesforceConnector = (deps: SalesforceConnectorDeps): SalesforceConnector => {
  const client = createSalesforceClient(deps);
  const keyFields = new Map<SObject, Promise<boolean>>();

  const ok = (response: PlatformResponse, what: string, statuses = [200]) => {
    if (!statuses.includes(response.status)) throw salesforceFailure(response, what);
    return response;
  };

  const query = async (soql: string, what: string, batchSize?: number) => {
    const response = await client.call(
      'GET',
      client.data(`/query?q=${encodeURIComponent(soql)}`),
      batchSize
        ? { headers: { 'sforce-query-options': `batchSize=${Math.min(2000, Math.max(200, batchSize))}` } }
        : {},
    );
    return QueryResult.parse(jsonOf(SALESFORCE_NAME, ok(response, what)));
  };

  /** A page of `SELECT fields FROM object [WHERE] ORDER BY Id`, resumable after the locator lapses. */
  const readPage = async <T>(
    request: CrmReadRequest,
    select: { fields: string[]; object: string; where?: string; map: (row: Row) => T; what: string },
  ): Promise<CrmPage<T>> => {
    const { map, what } = select;
    const soqlAfter = (lastId: string | null) => {
      const conditions = [select.where, lastId ? `Id > ${soqlString(lastId)}` : null].filter(Boolean);
      return (
        `SELECT ${select.fields.join(', ')} FROM ${select.object}` +
        `${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''} ORDER BY Id`
      );
    };
    let result: z.infer<typeof QueryResult>;
    const [locatorUrl, lastId] = request.cursor ? request.cursor.split('|') : [null, null];
    if (locatorUrl) {
      const response = await client.call('GET', locatorUrl);
      const lapsed =
        response.status === 400 &&
        errorsOf(response.text).some((e) => e.errorCode === 'INVALID_QUERY_LOCATOR');
      result = lapsed
        ? await query(soqlAfter(lastId || null), what, request.pageSize)
        : QueryResult.parse(jsonOf(SALESFORCE_NAME, ok(response, what)));
    } else result = await query(soqlAfter(null), what, request.pageSize);
    const last = text(result.records.at(-1)?.Id) ?? lastId ?? '';
    return {
      records: result.records.map(map),
      nextCursor: result.done || !result.nextRecordsUrl ? null : `${result.nextRecordsUrl}|${last}`,
      total: request.cursor ? null : result.totalSize,
    };
  };

  const hasKeyField = (sobject: SObject) => {
    let known = keyFields.get(sobject);
    if (!known) {
      known = (async () => {
        const response = ok(
          await client.call('GET', client.data(`/sobjects/${sobject}/describe`)),
          `describe ${sobject}`,
        );
        const body = jsonOf(SALESFORCE_NAME, response) as {
          fields?: { name?: string; externalId?: boolean }[];
        };
        return (body.fields ?? []).some((f) => f.name === SALESFORCE_KEY_FIELD && f.externalId === true);
      })();
      known.catch(() => keyFields.delete(sobject));
      keyFields.set(sobject, known);
    }
    return known;
  };

  const planOf = (push: CrmPush): Plan | null => {
    const task = (fields: Row, objectType: CrmPushResult['objectType']): Plan => ({
      sobject: 'Task',
      objectType,
      fields,
      lookup: (marker) => `SELECT Id FROM Task WHERE Subject LIKE ${soqlContains(marker)} LIMIT 1`,
      marked: (marker) => ({ ...fields, Subject: subjectWith(String(fields.Subject), marker) }),
    });
    switch (push.kind) {
      case 'createCompany': {
        const field = push.accountingIdentifier ? fieldName(push.accountingIdentifier) : null;
        const fields: Row = {
          Name: push.name.slice(0, 255),
          ...(push.ownerCrmId ? { OwnerId: push.ownerCrmId } : {}),
          ...(field ? { [field]: push.accountingId } : {}),
        };
        return {
          sobject: 'Account',
          objectType: 'company',
          fields,
          lookup: () =>
            field
              ? `SELECT Id FROM Account WHERE ${field} = ${soqlString(push.accountingId)} LIMIT 1`
              : `SELECT Id FROM Account WHERE Name = ${soqlString(push.name.slice(0, 255))} LIMIT 1`,
          marked: () => fields,
        };
      }
      case 'createContact': {
        const fields: Row = {
          AccountId: push.companyCrmId,
          Email: push.email,
          FirstName: push.firstName,
          // LastName is required on a Contact: the email's local part stands in.
          LastName: push.lastName ?? push.email.split('@')[0] ?? push.email,
        };
        return {
          sobject: 'Contact',
          objectType: 'contact',
          fields,
          lookup: () =>
            `SELECT Id FROM Contact WHERE Email = ${soqlString(push.email)} AND AccountId = ${soqlString(push.companyCrmId)} LIMIT 1`,
          marked: () => fields,
        };
      }
      case 'segmentChange':
        return task(
          {
            WhatId: push.companyCrmId,
            Subject: `Payment behaviour: ${push.from ?? 'new'} → ${push.to}`,
            Description:
              `${push.customerName} moved from ${push.from ?? 'no segment'} to ${push.to} ` +
              `on ${dateOnly(push.changedAt)} (Ledgerwise payment-behaviour segment).`,
            ActivityDate: dateOnly(push.changedAt),
            Status: 'Completed',
            Priority: 'Normal',
          },
          'event',
        );
      case 'overdueInvoice':
        return task(
          {
            WhatId: push.companyCrmId,
            Subject: `Invoice ${push.invoiceNumber} is ${push.daysOverdue} days overdue`,
            Description:
              `Invoice ${push.invoiceNumber} was due on ${dateOnly(push.dueDate)}; ` +
              `${moneyText(push.balance.cents, push.balance.currency)} is still open.`,
            // The day the invoice reached this stage: due date plus the days overdue.
            ActivityDate: dateOnly(
              new Date(Date.parse(push.dueDate) + push.daysOverdue * 86_400_000).toISOString(),
            ),
            Status: 'Completed',
            Priority: 'Normal',
          },
          'event',
        );
      case 'collectionTask':
        return task(
          {
            WhatId: push.companyCrmId,
            Subject: push.subject,
            Description: push.body,
            ActivityDate: dateOnly(push.dueAt),
            Status: 'Not Started',
            Priority: 'High',
            ...(push.ownerCrmId ? { OwnerId: push.ownerCrmId } : {}),
          },
          'task',
        );
      case 'linkCompany':
      case 'salesRep':
      case 'revopsProperties':
        return null;
    }
  };

  const created = (response: PlatformResponse, what: string): { id: string; created: boolean } | null => {
    if (response.status === 204) return null;
    const body = jsonOf(SALESFORCE_NAME, ok(response, what, [200, 201])) as {
      id?: string;
      created?: boolean;
    };
    if (!body.id) throw new Error(`${SALESFORCE_NAME} answered ${response.status} to ${what} without an id`);
    return { id: body.id, created: body.created ?? response.status === 201 };
  };

  const pushPlanned = async (push: CrmPush, plan: Plan): Promise<CrmPushResult> => {
    const what = `write a ${plan.sobject} (${push.kind})`;
    if (await hasKeyField(plan.sobject)) {
      const path = client.data(
        `/sobjects/${plan.sobject}/${SALESFORCE_KEY_FIELD}/${encodeURIComponent(externalKeyOf(push.key))}`,
      );
      const response = await client.call('PATCH', path, { body: plan.fields });
      let result = created(response, what);
      if (!result) {
        // Older API versions answer 204 to an update: read the record's id by its key.
        const found = await query(
          `SELECT Id FROM ${plan.sobject} WHERE ${SALESFORCE_KEY_FIELD} = ${soqlString(externalKeyOf(push.key))} LIMIT 1`,
          what,
        );
        result = { id: String(found.records[0]?.Id), created: false };
      }
      return { objectType: plan.objectType, crmId: result.id, created: result.created };
    }
    const marker = markerOf(push.key);
    const found = await query(plan.lookup(marker), what);
    const existing = text(found.records[0]?.Id);
    if (existing) return { objectType: plan.objectType, crmId: existing, created: false };
    const response = ok(
      await client.call('POST', client.data(`/sobjects/${plan.sobject}`), { body: plan.marked(marker) }),
      what,
      [201],
    );
    const body = jsonOf(SALESFORCE_NAME, response) as { id?: string };
    if (!body.id) throw new Error(`${SALESFORCE_NAME} created a ${plan.sobject} without telling its id`);
    return { objectType: plan.objectType, crmId: body.id, created: true };
  };

  const updateAccount = async (accountId: string, fields: Row, what: string) => {
    const response = await client.call(
      'PATCH',
      client.data(`/sobjects/Account/${encodeURIComponent(accountId)}`),
      { body: fields },
    );
    return ok(response, what, [204, 200]);
  };

  const push = async (request: CrmPush): Promise<CrmPushResult> => {
    if (request.kind === 'linkCompany') {
      await updateAccount(
        request.companyCrmId,
        { [fieldName(request.accountingIdentifier)]: request.accountingId },
        'write the accounting id on an Account',
      );
      return { objectType: 'property', crmId: request.companyCrmId, created: false };
    }
    if (request.kind === 'salesRep') {
      // The sales rep is the Account's owner: the active User of that name or email, when there is one.
      const by = request.salesRep.includes('@') ? 'Email' : 'Name';
      const users = await query(
        `SELECT Id FROM User WHERE ${by} = ${soqlString(request.salesRep)} AND IsActive = true LIMIT 1`,
        'find the sales rep among the org’s users',
      );
      const ownerId = text(users.records[0]?.Id);
      if (ownerId) await updateAccount(request.companyCrmId, { OwnerId: ownerId }, 'set the Account owner');
      return { objectType: 'property', crmId: request.companyCrmId, created: false };
    }
    const plan = planOf(request);
    if (!plan)
      throw userFailure(`${SALESFORCE_NAME} has no place for a ${request.kind} push.`, failureTypes.refused);
    return pushPlanned(request, plan);
  };

  const pushMany = async (pushes: CrmPush[]): Promise<CrmPushResult[]> => {
    const results: CrmPushResult[] = new Array<CrmPushResult>(pushes.length);
    const batches = new Map<SObject, { index: number; push: CrmPush; plan: Plan }[]>();
    for (const [index, request] of pushes.entries()) {
      const plan = planOf(request);
      if (plan && (await hasKeyField(plan.sobject))) {
        const list = batches.get(plan.sobject) ?? [];
        list.push({ index, push: request, plan });
        batches.set(plan.sobject, list);
      } else results[index] = await push(request);
    }
    for (const [sobject, items] of batches) {
      for (let start = 0; start < items.length; start += 200) {
        const chunk = items.slice(start, start + 200);
        const what = `write ${chunk.length} ${sobject} records`;
        const response = ok(
          await client.call('PATCH', client.data(`/composite/sobjects/${sobject}/${SALESFORCE_KEY_FIELD}`), {
            body: {
              allOrNone: false,
              records: chunk.map(({ push: p, plan }) => ({
                attributes: { type: sobject },
                ...plan.fields,
                [SALESFORCE_KEY_FIELD]: externalKeyOf(p.key),
              })),
            },
          }),
          what,
        );
        const saved = SaveResults.parse(jsonOf(SALESFORCE_NAME, response));
        for (const [n, item] of chunk.entries()) {
          const answer = saved[n];
          if (!answer?.success || !answer.id)
            throw salesforceFailure(
              { status: 400, headers: response.headers, text: JSON.stringify(answer?.errors ?? []) },
              `write a ${sobject} (${item.push.kind})`,
            );
          results[item.index] = {
            objectType: item.plan.objectType,
            crmId: answer.id,
            created: answer.created ?? false,
          };
        }
      }
    }
    return results;
  };

  const goneCodes = new Set([
    'ENTITY_IS_DELETED',
    'NOT_FOUND',
    'INVALID_CROSS_REFERENCE_KEY',
    'INVALID_ID_FIELD',
  ]);

  const remove = async (object: CrmCreatedObject) => {
    const sobject = typeOfObject[object.objectType];
    if (!sobject) return;
    const response = await client.call(
      'DELETE',
      client.data(`/sobjects/${sobject}/${encodeURIComponent(object.crmId)}`),
    );
    if (response.status === 204 || response.status === 200 || response.status === 404) return;
    if (errorsOf(response.text).some((e) => goneCodes.has(e.errorCode))) return;
    throw salesforceFailure(response, `delete a ${sobject}`);
  };

  const removeMany = async (objects: CrmCreatedObject[]) => {
    const ids = objects.filter((o) => typeOfObject[o.objectType]).map((o) => o.crmId);
    for (let start = 0; start < ids.length; start += 200) {
      const chunk = ids.slice(start, start + 200);
      const response = ok(
        await client.call(
          'DELETE',
          client.data(`/composite/sobjects?ids=${chunk.map(encodeURIComponent).join(',')}&allOrNone=false`),
        ),
        `delete ${chunk.length} records`,
      );
      const answers = SaveResults.parse(jsonOf(SALESFORCE_NAME, response));
      const failed = answers.filter(
        (a) => !a.success && !a.errors.some((e) => goneCodes.has(e.statusCode ?? '')),
      );
      if (failed.length > 0)
        throw new Error(
          `${SALESFORCE_NAME} kept ${failed.length} records it was asked to delete: ` +
            failed
              .flatMap((a) => a.errors.map((e) => `${e.statusCode}: ${e.message}`))
              .slice(0, 3)
              .join('; '),
        );
    }
  };

  return {
    check: async () => {
      const org = await query('SELECT Id, Name FROM Organization LIMIT 1', 'read the org');
      return { accountName: text(org.records[0]?.Name) };
    },
    readCompanies: async (request) => {
      const field = request.accountingIdentifier ? fieldName(request.accountingIdentifier) : null;
      const fields = ['Id', 'Name', 'OwnerId', 'Website', 'LastModifiedDate'];
      if (field && !fields.includes(field)) fields.push(field);
      return readPage<CrmCompany>(request, {
        fields,
        object: 'Account',
        what: 'read Accounts',
        map: (row) => ({
          crmId: String(row.Id),
          name: text(row.Name) ?? '',
          accountingId: field ? idText(row[field]) : null,
          domain: domainOf(row.Website),
          ownerCrmId: text(row.OwnerId),
          updatedAt: isoOf(row.LastModifiedDate),
        }),
      });
    },
    readContacts: (request) =>
      readPage<CrmContact>(request, {
        fields: ['Id', 'AccountId', 'Email', 'FirstName', 'LastName', 'OwnerId'],
        object: 'Contact',
        what: 'read Contacts',
        map: (row) => ({
          crmId: String(row.Id),
          companyCrmIds: text(row.AccountId) ? [String(row.AccountId)] : [],
          email: text(row.Email)?.toLowerCase() ?? null,
          firstName: text(row.FirstName),
          lastName: text(row.LastName),
          ownerCrmId: text(row.OwnerId),
        }),
      }),
    readOwners: async () => {
      const owners: CrmOwner[] = [];
      let cursor: string | null = null;
      do {
        const page: CrmPage<CrmOwner> = await readPage<CrmOwner>(
          { cursor, pageSize: 2000, accountingIdentifier: null },
          {
            fields: ['Id', 'Name', 'Email'],
            object: 'User',
            where: 'IsActive = true',
            what: 'read Users',
            map: (row) => ({
              crmId: String(row.Id),
              name: text(row.Name) ?? '',
              email: text(row.Email)?.toLowerCase() ?? null,
            }),
          },
        );
        owners.push(...page.records);
        cursor = page.nextCursor;
      } while (cursor);
      return owners;
    },
    supports: salesforceSupports,
    push,
    pushMany,
    remove,
    removeMany,
    unlinkCompany: async (companyCrmId, accountingIdentifier) => {
      const response = await client.call(
        'PATCH',
        client.data(`/sobjects/Account/${encodeURIComponent(companyCrmId)}`),
        { body: { [fieldName(accountingIdentifier)]: null } },
      );
      if (response.status === 204 || response.status === 200 || response.status === 404) return;
      if (errorsOf(response.text).some((e) => goneCodes.has(e.errorCode))) return;
      throw salesforceFailure(response, 'clear the accounting id on an Account');
    },
  };
};
