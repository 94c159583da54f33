import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../../../commands/command-handler';
import type { LedgerCustomer } from '../../../../contracts/ledger';
import { sellerStream, tenantStream } from '../../../../contracts/stream-ids';
import { sellerDecider } from '../../../../domain/seller/seller-decider';
import { tenantDecider } from '../../../../domain/tenant/tenant-decider';
import { CUSTOMER_FORECASTS, type CustomerForecastDoc } from '../../../forecast/forecast-store';
import { ledgerCollections } from '../../../ledger/ledger-collections';
import { toDay } from '../../../metrics/compute-metrics';
import type { CustomerReceivablesDoc } from '../../../metrics/customer-receivables';
import { CUSTOMER_RECEIVABLES, liveGenerationOf } from '../../../metrics/metric-store';
import { readMetricsScope } from '../../../metrics/metrics-scope';
import { eachDoc, exclusionSets, openInvoicesAsOf } from '../../../reports/sheets/sheet-ledger';
import { readState } from '../../../sync/system-commands';
import type { CustomerFacts, SellerPushFacts } from './plan-pushes';

/**
 * The facts a push is planned from, for one seller: its linked customers as the last metrics run
 * saw them (customer_receivables: risk, balances, DSO, last payment), the collections forecast for
 * the next 30 days, and the open invoices overdue at the seller's collection date (the reports' rule).
 */
export type PushFactsDeps = { writeSide: CommandHandlerDeps; db: Db; now: () => Date };

/** Where a customer's sales rep and its CRM company's owner come from (see CrmPushDeps). */
export type PushFactSources = {
  /** CRM company id -> its owner's CRM id. */
  owners: ReadonlyMap<string, string | null>;
  /** Customer id -> sales rep name. */
  salesReps: ReadonlyMap<string, string>;
};

const DAY_MS = 86_400_000;
const FORECAST_DAYS = 30;
const CHUNK = 1000;

const chunksOf = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** Ledger customer ids are positive integers; a link to anything else names no ledger customer. */
const ledgerIdOf = (customerId: string): number | null =>
  /^[1-9][0-9]*$/.test(customerId) ? Number(customerId) : null;

type Receivables = Pick<
  CustomerReceivablesDoc,
  'customerId' | 'name' | 'risk' | 'openBalance' | 'overdue' | 'dsoDays' | 'lastPayment'
>;

const receivablesOf = async (db: Db, sellerId: number, ids: readonly number[]) => {
  const found = new Map<number, Receivables>();
  const generation = await liveGenerationOf(db, sellerId, 'receivables');
  if (generation === undefined) return found;
  for (const chunk of chunksOf(ids, CHUNK))
    await eachDoc(
      db
        .collection<CustomerReceivablesDoc>(CUSTOMER_RECEIVABLES)
        .find({ sellerId, generation, customerId: { $in: chunk } }),
      (doc) => found.set(doc.customerId, doc),
    );
  return found;
};

const namesOf = async (db: Db, sellerId: number, ids: readonly number[]) => {
  const names = new Map<number, string>();
  for (const chunk of chunksOf(ids, CHUNK))
    await eachDoc(
      db
        .collection<LedgerCustomer>(ledgerCollections.customers)
        .find({ sellerId, customerId: { $in: chunk } }, { projection: { _id: 0, customerId: 1, name: 1 } }),
      (customer) => names.set(customer.customerId, customer.name),
    );
  return names;
};

/** Per customer, the latest collections forecast's expected payments in the 30 days from `asOf`. */
const expectedCollectionsOf = async (
  db: Db,
  { sellerId, ids, asOf }: { sellerId: number; ids: readonly number[]; asOf: Date },
) => {
  const latest = new Map<number, CustomerForecastDoc>();
  for (const chunk of chunksOf(ids, CHUNK))
    await eachDoc(
      db.collection<CustomerForecastDoc>(CUSTOMER_FORECASTS).find({ sellerId, customerId: { $in: chunk } }),
      (doc) => {
        const seen = latest.get(doc.customerId);
        if (!seen || seen.asOf.getTime() < doc.asOf.getTime()) latest.set(doc.customerId, doc);
      },
    );
  const from = toDay(asOf) * DAY_MS;
  const until = from + FORECAST_DAYS * DAY_MS;
  const expected = new Map<number, number>();
  for (const [customerId, doc] of latest) {
    const weeks = doc.weeks.filter((w) => w.startDate.getTime() >= from && w.startDate.getTime() < until);
    if (weeks.length > 0) expected.set(customerId, Math.round(weeks.reduce((sum, w) => sum + w.mean, 0)));
  }
  return expected;
};

/**
 * One seller's facts for its linked customers (customer id -> CRM company id); null when the seller
 * is gone or belongs to another tenant than the integration (links never cross tenants).
 */
export const loadSellerPushFacts = async (
  deps: PushFactsDeps,
  request: {
    sellerId: number;
    tenantId: number;
    links: ReadonlyMap<string, string>;
    sources: PushFactSources;
  },
): Promise<(SellerPushFacts & { asOf: Date }) | null> => {
  const { db } = deps;
  const { sellerId, tenantId, links, sources } = request;
  const seller = await readState(deps.writeSide, sellerDecider, sellerStream(sellerId));
  if (seller.status !== 'known' || seller.tenantId !== tenantId) return null;
  const scope = await readMetricsScope(deps, { sellerId, tenantId });
  const ids = [...links.keys()].map(ledgerIdOf).filter((id): id is number => id !== null);
  const [receivables, expected, open] = await Promise.all([
    receivablesOf(db, sellerId, ids),
    expectedCollectionsOf(db, { sellerId, ids, asOf: scope.asOf }),
    openInvoicesAsOf(db, { sellerId, asOf: scope.asOf, excluded: exclusionSets(scope.exclusions) }),
  ]);
  const names = await namesOf(
    db,
    sellerId,
    ids.filter((id) => !receivables.has(id)),
  );
  const excluded = new Set(scope.exclusions.customerIds);
  const customers: CustomerFacts[] = [];
  for (const [customerId, companyCrmId] of links) {
    const id = ledgerIdOf(customerId);
    // An excluded customer is left out of every report: the CRM hears nothing of it either.
    if (id !== null && excluded.has(id)) continue;
    const figures = id === null ? undefined : receivables.get(id);
    customers.push({
      customerId,
      companyCrmId,
      ownerCrmId: sources.owners.get(companyCrmId) ?? null,
      name: figures?.name ?? (id === null ? undefined : names.get(id)) ?? `Customer ${customerId}`,
      risk: figures?.risk ?? null,
      openBalance: figures?.openBalance ?? 0,
      overdue: figures?.overdue ?? 0,
      dsoDays: figures?.dsoDays ?? null,
      lastPayment: figures?.lastPayment ?? null,
      expectedCollections: id === null ? null : (expected.get(id) ?? null),
      salesRep: sources.salesReps.get(customerId) ?? null,
    });
  }
  const lastDay = toDay(scope.asOf);
  return {
    sellerId,
    asOf: scope.asOf,
    pushSalesRep: seller.featureFlags['crm.PushSalesRep'],
    customers,
    overdueInvoices: open
      .filter((invoice) => lastDay - invoice.dueDay > 0 && links.has(String(invoice.customerId)))
      .map((invoice) => ({
        providerId: invoice.providerId,
        customerId: String(invoice.customerId),
        docNumber: invoice.docNumber,
        dueDate: invoice.dueDate,
        daysOverdue: lastDay - invoice.dueDay,
        open: invoice.open,
      })),
  };
};

/** The tenant's reporting currency (Settings.Reporting.Currency), USD until it chose one. */
export const tenantCurrency = async (writeSide: CommandHandlerDeps, tenantId: number): Promise<string> => {
  const tenant = await readState(writeSide, tenantDecider, tenantStream(tenantId));
  return tenant.status === 'none' ? 'USD' : tenant.reporting.Currency;
};
