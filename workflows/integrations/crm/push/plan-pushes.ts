import type { CrmSettings } from '../../../../contracts/events/integration';
import type { RiskLevel } from '../../../metrics/receivables-metrics';
import type { CrmPush, CrmPushKind } from '../crm-connector';
import type { AppliedPushes } from './applied-pushes';
import { pushKeyGroup, splitPushKey, valueDigest, versionedKey } from './push-keys';

/**
 * What Ledgerwise says to a CRM about the customers linked to its companies, planned from facts the
 * metrics and the ledger already hold, minus what the integration's stream records as said
 * (docs/adr/0046-crm-pushes.md). Pure: the same facts and the same record give the same pushes.
 */

/** A linked customer as of the seller's last metrics run; money in integer cents. */
export type CustomerFacts = {
  customerId: string;
  companyCrmId: string;
  /** The CRM owner of the company: collection tasks go to them. */
  ownerCrmId: string | null;
  name: string;
  /** The payment-behaviour segment (the customers table's risk); null before a metrics run. */
  risk: RiskLevel | null;
  openBalance: number;
  overdue: number;
  dsoDays: number | null;
  lastPayment: Date | null;
  /** What the collections forecast expects the customer to pay in the next 30 days; null without one. */
  expectedCollections: number | null;
  salesRep: string | null;
};

export type OverdueInvoiceFacts = {
  /** The platform's invoice id: stable where a document number may be reused. */
  providerId: string;
  customerId: string;
  docNumber: string;
  dueDate: Date;
  daysOverdue: number;
  /** Open amount in cents. */
  open: number;
};

export type SellerPushFacts = {
  sellerId: number;
  /** The seller's crm.PushSalesRep feature flag. */
  pushSalesRep: boolean;
  customers: readonly CustomerFacts[];
  /** The seller's open overdue invoices (any customer; those of unlinked customers are ignored). */
  overdueInvoices: readonly OverdueInvoiceFacts[];
};

export type PushPlanInput = {
  integrationId: number;
  /** HubSpot RevOps Pro (productIdentifier REVOPS). */
  revops: boolean;
  settings: Pick<
    CrmSettings,
    'SkipSalesData' | 'DisableSegmentChangeEvents' | 'DisableOverdueInvoiceEvents' | 'DisableCreatingTasks'
  >;
  supports: ReadonlySet<CrmPushKind>;
  /** The tenant's reporting currency (ISO). */
  currency: string;
  /** The day the facts describe (the seller's collection date). */
  asOf: Date;
  sellers: readonly SellerPushFacts[];
  applied: Pick<AppliedPushes, 'keys' | 'latest'>;
};

export type PlannedPush = { push: CrmPush; sellerId: number; customerId: string };

export type PushPlan = {
  pushes: PlannedPush[];
  /** Pushes the facts call for that the stream records as applied already, with the same content. */
  skipped: number;
};

/** Days overdue at which an invoice gets an overdue event: first day late, then 30, 60 and 90. */
export const overdueStages = [1, 30, 60, 90] as const;

/** Collection tasks per seller and push: the invoices at the top of the prioritized list. */
export const TASKS_PER_SELLER = 10;

export const segmentLabels: Record<RiskLevel, string> = {
  low: 'Low risk',
  medium: 'Medium risk',
  high: 'High risk',
};

/** The RevOps Pro company properties, by the name the connector writes them under. */
export const revopsPropertyNames = {
  openReceivables: 'ledgerwise_open_receivables',
  overdueReceivables: 'ledgerwise_overdue_receivables',
  dsoDays: 'ledgerwise_dso_days',
  lastPaymentDate: 'ledgerwise_last_payment_date',
  paymentSegment: 'ledgerwise_payment_segment',
  expectedCollections: 'ledgerwise_expected_collections_30d',
  currency: 'ledgerwise_currency',
} as const;

const DAY_MS = 86_400_000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const startOfDay = (date: Date) => new Date(Math.floor(date.getTime() / DAY_MS) * DAY_MS);
const units = (cents: number) => Math.round(cents) / 100;

const stageOf = (daysOverdue: number): number | null =>
  [...overdueStages].reverse().find((stage) => daysOverdue >= stage) ?? null;

/**
 * The reports' prioritized-invoices order (workflows/reports/sheets/prioritized-invoices-sheet.ts):
 * open amount times days overdue, largest first; then the older due date; then the invoice number.
 */
const byPriority = (a: OverdueInvoiceFacts, b: OverdueInvoiceFacts) =>
  b.open * b.daysOverdue - a.open * a.daysOverdue ||
  a.dueDate.getTime() - b.dueDate.getTime() ||
  (a.docNumber < b.docNumber ? -1 : a.docNumber > b.docNumber ? 1 : 0);

const moneyText = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);

export const planPushes = (input: PushPlanInput): PushPlan => {
  const { integrationId, settings, supports, currency, applied } = input;
  const asOf = startOfDay(input.asOf);
  const pushes: PlannedPush[] = [];
  let skipped = 0;
  const can = (kind: CrmPushKind) => supports.has(kind);

  /**
   * Adds the push unless its key was applied; a versioned key only when its group's last version
   * differs, so a value that goes back to an earlier one is written again.
   */
  const offer = (planned: PlannedPush) => {
    const { group, version } = splitPushKey(planned.push.key);
    const unchanged =
      version === null ? applied.keys.has(planned.push.key) : applied.latest.get(group)?.version === version;
    if (unchanged) skipped += 1;
    else pushes.push(planned);
  };

  for (const seller of input.sellers) {
    const { sellerId } = seller;
    const customers = [...seller.customers].sort((a, b) => (a.customerId < b.customerId ? -1 : 1));
    const linked = new Map(customers.map((customer) => [customer.customerId, customer]));
    const subject = (customerId: string, parts?: (string | number)[]) => ({ sellerId, customerId, parts });

    for (const customer of customers) {
      const { customerId, companyCrmId } = customer;
      if (customer.risk !== null && !settings.DisableSegmentChangeEvents && can('segmentChange')) {
        const group = pushKeyGroup(integrationId, 'segment', subject(customerId));
        const last = applied.latest.get(group)?.version ?? null;
        const from = last === null ? null : (last.split('>')[1]?.split('@')[0] ?? null);
        if (from === customer.risk) skipped += 1;
        else
          offer({
            sellerId,
            customerId,
            push: {
              kind: 'segmentChange',
              key: versionedKey(group, `${from ?? 'none'}>${customer.risk}@${isoDay(asOf)}`),
              companyCrmId,
              customerName: customer.name,
              from: from === null ? null : (segmentLabels[from as RiskLevel] ?? from),
              to: segmentLabels[customer.risk],
              changedAt: asOf.toISOString(),
            },
          });
      }
    }

    const overdue = seller.overdueInvoices.filter((invoice) => linked.has(invoice.customerId));
    // An overdue event states the invoice's balance: with SkipSalesData there is no event to send.
    if (!settings.DisableOverdueInvoiceEvents && !settings.SkipSalesData && can('overdueInvoice'))
      for (const invoice of [...overdue].sort((a, b) => (a.providerId < b.providerId ? -1 : 1))) {
        const stage = stageOf(invoice.daysOverdue);
        const customer = linked.get(invoice.customerId);
        if (stage === null || !customer) continue;
        offer({
          sellerId,
          customerId: invoice.customerId,
          push: {
            kind: 'overdueInvoice',
            key: pushKeyGroup(
              integrationId,
              'overdue',
              subject(invoice.customerId, [invoice.providerId, `d${stage}`]),
            ),
            companyCrmId: customer.companyCrmId,
            invoiceNumber: invoice.docNumber,
            dueDate: isoDay(invoice.dueDate),
            daysOverdue: invoice.daysOverdue,
            balance: { cents: invoice.open, currency },
          },
        });
      }

    if (!settings.DisableCreatingTasks && can('collectionTask'))
      for (const invoice of [...overdue].sort(byPriority).slice(0, TASKS_PER_SELLER)) {
        const customer = linked.get(invoice.customerId);
        if (!customer) continue;
        const amount = settings.SkipSalesData ? '' : ` with ${moneyText(invoice.open, currency)} open`;
        offer({
          sellerId,
          customerId: invoice.customerId,
          push: {
            kind: 'collectionTask',
            key: pushKeyGroup(integrationId, 'task', subject(invoice.customerId, [invoice.providerId])),
            companyCrmId: customer.companyCrmId,
            subject: `Collect invoice ${invoice.docNumber} from ${customer.name}`,
            body:
              `Invoice ${invoice.docNumber} was due on ${isoDay(invoice.dueDate)} and is ` +
              `${invoice.daysOverdue} days overdue${amount}. Ledgerwise ranks it among the invoices to chase first.`,
            dueAt: new Date(asOf.getTime() + DAY_MS).toISOString(),
            ownerCrmId: customer.ownerCrmId,
          },
        });
      }

    for (const customer of customers) {
      const { customerId, companyCrmId } = customer;
      if (seller.pushSalesRep && customer.salesRep !== null && can('salesRep')) {
        const group = pushKeyGroup(integrationId, 'salesRep', subject(customerId));
        offer({
          sellerId,
          customerId,
          push: {
            kind: 'salesRep',
            key: versionedKey(group, valueDigest({ salesRep: customer.salesRep })),
            companyCrmId,
            salesRep: customer.salesRep,
          },
        });
      }
      // No figures before the customer's first metrics run: zeros there would read as a clean account.
      if (input.revops && customer.risk !== null && can('revopsProperties')) {
        const properties = revopsPropertiesOf(customer, { currency, skipSalesData: settings.SkipSalesData });
        const group = pushKeyGroup(integrationId, 'revops', subject(customerId));
        offer({
          sellerId,
          customerId,
          push: {
            kind: 'revopsProperties',
            key: versionedKey(group, valueDigest(properties)),
            companyCrmId,
            properties,
          },
        });
      }
    }
  }
  return { pushes, skipped };
};

/** The revenue-operations figures of one company; money in currency units, absent under SkipSalesData. */
export const revopsPropertiesOf = (
  customer: CustomerFacts,
  options: { currency: string; skipSalesData: boolean },
): Record<string, string | number | null> => {
  const names = revopsPropertyNames;
  const figures: Record<string, string | number | null> = {
    [names.paymentSegment]: customer.risk === null ? null : segmentLabels[customer.risk],
    [names.dsoDays]: customer.dsoDays,
    [names.lastPaymentDate]: customer.lastPayment === null ? null : isoDay(customer.lastPayment),
  };
  if (options.skipSalesData) return figures;
  return {
    ...figures,
    [names.openReceivables]: units(customer.openBalance),
    [names.overdueReceivables]: units(customer.overdue),
    [names.expectedCollections]:
      customer.expectedCollections === null ? null : units(customer.expectedCollections),
    [names.currency]: options.currency,
  };
};
