/**
 * What an integration sync needs from a CRM (HubSpot, HubSpot RevOps Pro, Salesforce, ActiveCampaign),
 * in the product's words, so the sync, matching and push code never sees a provider's format.
 *
 * Reads are paged with an opaque cursor that the sync keeps in its heartbeat, as the accounting
 * connectors do (workflows/sync/ledger-connector.ts). Writes are idempotent by `key`: the same key
 * pushed twice leaves one object in the CRM. Each connector says how it keeps that promise (an external
 * id upsert, a search by a marker property, the provider's own event id), and answers the CRM id of the
 * object it made or found, so a purge can remove exactly what Ledgerwise created.
 */

/** A CRM company (HubSpot company, Salesforce Account, ActiveCampaign account). */
export type CrmCompany = {
  crmId: string;
  name: string;
  /** The value of the settings' AccountingIdentifier property; null when unset or not configured. */
  accountingId: string | null;
  domain: string | null;
  ownerCrmId: string | null;
  updatedAt: string | null;
};

export type CrmContact = {
  crmId: string;
  /** The companies the contact belongs to, primary first. */
  companyCrmIds: string[];
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  ownerCrmId: string | null;
};

/** A CRM user who can own companies and tasks (HubSpot owner, Salesforce User). */
export type CrmOwner = { crmId: string; email: string | null; name: string };

export type CrmPage<T> = {
  records: T[];
  /** Null after the last page. */
  nextCursor: string | null;
  /** The provider's total when it tells one (for progress); null when it does not. */
  total: number | null;
};

export type CrmReadRequest = {
  cursor: string | null;
  pageSize: number;
  /** The CRM property that holds the accounting customer id (settings.AccountingIdentifier). */
  accountingIdentifier: string | null;
};

/** Money as integer cents with its ISO currency. */
export type CrmMoney = { cents: number; currency: string };

export type CrmPush =
  | {
      kind: 'createCompany';
      key: string;
      name: string;
      accountingId: string;
      /** Written to the settings' AccountingIdentifier property when configured. */
      accountingIdentifier: string | null;
      ownerCrmId: string | null;
    }
  | {
      kind: 'createContact';
      key: string;
      companyCrmId: string;
      email: string;
      firstName: string | null;
      lastName: string | null;
    }
  /** Writes the accounting customer id onto a company matched by name (the link Unlink removes). */
  | {
      kind: 'linkCompany';
      key: string;
      companyCrmId: string;
      accountingIdentifier: string;
      accountingId: string;
    }
  | {
      kind: 'segmentChange';
      key: string;
      companyCrmId: string;
      customerName: string;
      from: string | null;
      to: string;
      changedAt: string;
    }
  | {
      kind: 'overdueInvoice';
      key: string;
      companyCrmId: string;
      invoiceNumber: string;
      dueDate: string;
      daysOverdue: number;
      balance: CrmMoney;
    }
  | {
      kind: 'collectionTask';
      key: string;
      companyCrmId: string;
      subject: string;
      body: string;
      dueAt: string;
      ownerCrmId: string | null;
    }
  | { kind: 'salesRep'; key: string; companyCrmId: string; salesRep: string }
  /** RevOps Pro only: the revenue-operations properties of a HubSpot company. */
  | {
      kind: 'revopsProperties';
      key: string;
      companyCrmId: string;
      properties: Record<string, string | number | null>;
    };

export type CrmPushKind = CrmPush['kind'];

/** What a push made or changed in the CRM; `created` objects are the ones a purge deletes. */
export type CrmPushResult = {
  objectType: 'company' | 'contact' | 'event' | 'task' | 'note' | 'property';
  crmId: string;
  created: boolean;
};

export type CrmCreatedObject = { objectType: CrmPushResult['objectType']; crmId: string };

export type CrmConnector = {
  /** Checks the credentials with a cheap real call; throws a ConnectorFailure (userFailure) when refused. */
  check: () => Promise<{ accountName: string | null }>;
  readCompanies: (request: CrmReadRequest) => Promise<CrmPage<CrmCompany>>;
  readContacts: (request: CrmReadRequest) => Promise<CrmPage<CrmContact>>;
  readOwners: () => Promise<CrmOwner[]>;
  /** Which push kinds this provider supports (ActiveCampaign has no timeline events, for instance). */
  supports: ReadonlySet<CrmPushKind>;
  push: (push: CrmPush) => Promise<CrmPushResult>;
  /** Deletes an object Ledgerwise created; an object already gone is not an error. */
  remove: (object: CrmCreatedObject) => Promise<void>;
  /** Clears the accounting identifier Ledgerwise wrote on a company (Unlink). */
  unlinkCompany: (companyCrmId: string, accountingIdentifier: string) => Promise<void>;
};
