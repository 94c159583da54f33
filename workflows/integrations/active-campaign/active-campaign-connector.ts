import { createHash } from 'node:crypto';
import { z } from 'zod';
import type {
  CrmCompany,
  CrmConnector,
  CrmContact,
  CrmOwner,
  CrmPage,
  CrmPush,
  CrmPushKind,
  CrmPushResult,
  CrmReadRequest,
} from '../crm/crm-connector';
import { failureTypes, userFailure } from '../../connectors/shared/connector-failure';
import {
  ACTIVE_CAMPAIGN_NAME,
  createActiveCampaignClient,
  problemOf,
  type ActiveCampaignClientDeps,
} from './active-campaign-client';

/**
 * ActiveCampaign as a CRM (docs/adr/0048-salesforce-and-activecampaign.md): accounts are the
 * companies, contacts the people (their accounts from the accountContacts links), users the owners,
 * all paged with limit and offset (100 at most). ActiveCampaign has no tasks outside deals and no
 * timeline events, so segment changes and overdue invoices become notes on the account, found again
 * by a `[lw:…]` marker; companies are unique by name (a duplicate is found, not made twice) and
 * contacts by email (contact/sync). It has no field for the accounting id that a sync could trust,
 * so nothing is linked or unlinked.
 */
export type ActiveCampaignConnectorDeps = ActiveCampaignClientDeps;

export const activeCampaignSupports: ReadonlySet<CrmPushKind> = new Set<CrmPushKind>([
  'createCompany',
  'createContact',
  'segmentChange',
  'overdueInvoice',
]);

const Total = z.union([z.string(), z.number()]).transform(Number);
const Id = z.union([z.string(), z.number()]).transform(String);
const nullableText = z
  .string()
  .nullish()
  .transform((value) => (value ? value : null));

const AccountRow = z.object({
  id: Id,
  name: z.string(),
  accountUrl: nullableText,
  owner: Id.nullish(),
  updatedTimestamp: nullableText,
});
const ContactRow = z.object({
  id: Id,
  email: nullableText,
  firstName: nullableText,
  lastName: nullableText,
});
const LinkRow = z.object({ account: Id, contact: Id });
const UserRow = z.object({
  id: Id,
  email: nullableText,
  firstName: nullableText,
  lastName: nullableText,
  username: nullableText,
});
const Meta = z.object({ total: Total }).optional();

const isoOf = (value: string | null) => {
  if (!value) return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : new Date(at).toISOString();
};

const domainOf = (url: string | null) => {
  if (!url) return null;
  try {
    return new URL(/^https?:\/\//i.test(url) ? url : `https://${url}`).hostname.replace(/^www\./, '') || null;
  } catch {
    return null;
  }
};

export const activeCampaignMarkerOf = (key: string) =>
  `[lw:${createHash('sha256').update(key).digest('hex').slice(0, 16)}]`;

const moneyText = (cents: number, currency: string) => {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
};

const nextOffset = (offset: number, rows: number, total: number | null) =>
  rows > 0 && (total === null || offset + rows < total) ? String(offset + rows) : null;

export const createActiveCampaignConnector = (deps: ActiveCampaignConnectorDeps): CrmConnector => {
  const api = createActiveCampaignClient(deps);
  const get = async (path: string, what: string) => api.expect(await api.call('GET', path), what);

  const paging = (request: { cursor: string | null; pageSize: number }) => {
    const offset = Number(request.cursor ?? 0) || 0;
    const limit = Math.min(100, Math.max(1, request.pageSize));
    return { offset, limit };
  };

  const findAccountByName = async (name: string) => {
    const body = z
      .object({ accounts: z.array(AccountRow) })
      .parse(await get(`/accounts?search=${encodeURIComponent(name)}&limit=100`, 'search accounts'));
    return body.accounts.find((a) => a.name.trim().toLowerCase() === name.trim().toLowerCase()) ?? null;
  };

  const note = async (
    push: Extract<CrmPush, { kind: 'segmentChange' | 'overdueInvoice' }>,
    text: string,
  ): Promise<CrmPushResult> => {
    const marker = activeCampaignMarkerOf(push.key);
    const listed = z
      .object({ notes: z.array(z.object({ id: Id, note: z.string().nullish() })) })
      .parse(await get(`/accounts/${encodeURIComponent(push.companyCrmId)}/notes`, 'read account notes'));
    const existing = listed.notes.find((n) => n.note?.includes(marker));
    if (existing) return { objectType: 'note', crmId: existing.id, created: false };
    const made = z.object({ note: z.object({ id: Id }) }).parse(
      api.expect(
        await api.call('POST', '/notes', {
          note: { note: `${text}\n${marker}`, relid: push.companyCrmId, reltype: 'CustomerAccount' },
        }),
        'add a note',
        [200, 201],
      ),
    );
    return { objectType: 'note', crmId: made.note.id, created: true };
  };

  const push = async (request: CrmPush): Promise<CrmPushResult> => {
    switch (request.kind) {
      case 'createCompany': {
        const found = await findAccountByName(request.name);
        if (found) return { objectType: 'company', crmId: found.id, created: false };
        const response = await api.call('POST', '/accounts', {
          account: { name: request.name, ...(request.ownerCrmId ? { owner: request.ownerCrmId } : {}) },
        });
        if (response.status === 422 && problemOf(response.text).codes.includes('duplicate')) {
          const raced = await findAccountByName(request.name);
          if (raced) return { objectType: 'company', crmId: raced.id, created: false };
        }
        const made = z
          .object({ account: z.object({ id: Id }) })
          .parse(api.expect(response, 'create an account', [200, 201]));
        return { objectType: 'company', crmId: made.account.id, created: true };
      }
      case 'createContact': {
        const response = await api.call('POST', '/contact/sync', {
          contact: {
            email: request.email,
            ...(request.firstName ? { firstName: request.firstName } : {}),
            ...(request.lastName ? { lastName: request.lastName } : {}),
          },
        });
        const synced = z
          .object({ contact: z.object({ id: Id }) })
          .parse(api.expect(response, 'create a contact', [200, 201]));
        const link = await api.call('POST', '/accountContacts', {
          accountContact: { contact: synced.contact.id, account: request.companyCrmId },
        });
        if (!(link.status === 422 && problemOf(link.text).codes.includes('duplicate')))
          api.expect(link, 'link a contact to its account', [200, 201]);
        return { objectType: 'contact', crmId: synced.contact.id, created: response.status === 201 };
      }
      case 'segmentChange':
        return note(
          request,
          `Payment behaviour of ${request.customerName} moved from ${request.from ?? 'no segment'} to ` +
            `${request.to} on ${request.changedAt.slice(0, 10)} (Ledgerwise).`,
        );
      case 'overdueInvoice':
        return note(
          request,
          `Invoice ${request.invoiceNumber} is ${request.daysOverdue} days overdue (due ` +
            `${request.dueDate.slice(0, 10)}); ${moneyText(request.balance.cents, request.balance.currency)} ` +
            'is still open (Ledgerwise).',
        );
      case 'linkCompany':
      case 'collectionTask':
      case 'salesRep':
      case 'revopsProperties':
        throw userFailure(
          `${ACTIVE_CAMPAIGN_NAME} has no place for a ${request.kind} push.`,
          failureTypes.refused,
        );
    }
  };

  const pathOf: Record<string, string | undefined> = {
    note: '/notes',
    company: '/accounts',
    contact: '/contacts',
  };

  return {
    check: async () => {
      await get('/users/me', 'check the API key');
      const token = await deps.tokens.current();
      return { accountName: domainOf(token.instanceUrl) };
    },
    readCompanies: async (request: CrmReadRequest): Promise<CrmPage<CrmCompany>> => {
      const { offset, limit } = paging(request);
      const body = z
        .object({ accounts: z.array(AccountRow), meta: Meta })
        .parse(await get(`/accounts?limit=${limit}&offset=${offset}`, 'read accounts'));
      const total = body.meta?.total ?? null;
      return {
        records: body.accounts.map((a) => ({
          crmId: a.id,
          name: a.name,
          accountingId: null,
          domain: domainOf(a.accountUrl),
          ownerCrmId: a.owner ?? null,
          updatedAt: isoOf(a.updatedTimestamp),
        })),
        nextCursor: nextOffset(offset, body.accounts.length, total),
        total,
      };
    },
    readContacts: async (request: CrmReadRequest): Promise<CrmPage<CrmContact>> => {
      const { offset, limit } = paging(request);
      const body = z
        .object({ contacts: z.array(ContactRow), accountContacts: z.array(LinkRow).default([]), meta: Meta })
        .parse(
          await get(
            `/contacts?limit=${limit}&offset=${offset}&include=accountContacts&orders%5Bid%5D=ASC`,
            'read contacts',
          ),
        );
      const total = body.meta?.total ?? null;
      return {
        records: body.contacts.map((c) => ({
          crmId: c.id,
          companyCrmIds: body.accountContacts.filter((l) => l.contact === c.id).map((l) => l.account),
          email: c.email?.toLowerCase() ?? null,
          firstName: c.firstName,
          lastName: c.lastName,
          ownerCrmId: null,
        })),
        nextCursor: nextOffset(offset, body.contacts.length, total),
        total,
      };
    },
    readOwners: async () => {
      const owners: CrmOwner[] = [];
      for (let offset = 0; ; offset += 100) {
        const body = z
          .object({ users: z.array(UserRow), meta: Meta })
          .parse(await get(`/users?limit=100&offset=${offset}`, 'read users'));
        owners.push(
          ...body.users.map((u) => ({
            crmId: u.id,
            email: u.email?.toLowerCase() ?? null,
            name: [u.firstName, u.lastName].filter(Boolean).join(' ') || (u.username ?? ''),
          })),
        );
        if (!nextOffset(offset, body.users.length, body.meta?.total ?? null) || body.users.length < 100)
          return owners;
      }
    },
    supports: activeCampaignSupports,
    push,
    remove: async (object) => {
      const path = pathOf[object.objectType];
      if (!path) return;
      const response = await api.call('DELETE', `${path}/${encodeURIComponent(object.crmId)}`);
      if (response.status === 404) return;
      api.expect(response, `delete a ${object.objectType}`, [200, 204]);
    },
    // Nothing was written to link a company (no linkCompany push): nothing to clear.
    unlinkCompany: () => Promise.resolve(),
  };
};
