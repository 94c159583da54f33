import type { Db } from 'mongodb';
import type { SellerMetricSummary } from '../../../contracts/ledger';
import { querySellerMetricSummary } from '../../metrics/metric-store';
import { gatherScorecardData, type ScorecardData } from './scorecard-data';
import { loadReportSubject, type ReportSubject } from './report-subject';

/**
 * The welcome report's figures: what the first sync found (the metrics summary: customers,
 * invoices and sales over 36 months, all-time sales and payments) and where the receivables stand
 * (the scorecard's figures, as of the same metrics run).
 */
export type WelcomeData = {
  found: Pick<
    SellerMetricSummary,
    | 'customersT36M'
    | 'activeCustomers'
    | 'invoicesT36M'
    | 'invoiceSalesT36M'
    | 'salesAllTime'
    | 'paidAllTime'
    | 'retentionMonths'
  > | null;
  standing: ScorecardData;
};

export const gatherWelcomeData = async (
  db: Db,
  query: { sellerId: number; asOf: Date },
  loaded?: ReportSubject,
): Promise<WelcomeData> => {
  const subject = loaded ?? (await loadReportSubject(db, query.sellerId));
  const [summary, standing] = await Promise.all([
    querySellerMetricSummary(db, query.sellerId),
    gatherScorecardData(db, query, subject),
  ]);
  return {
    found: summary && {
      customersT36M: summary.customersT36M,
      activeCustomers: summary.activeCustomers,
      invoicesT36M: summary.invoicesT36M,
      invoiceSalesT36M: summary.invoiceSalesT36M,
      salesAllTime: summary.salesAllTime,
      paidAllTime: summary.paidAllTime,
      retentionMonths: summary.retentionMonths,
    },
    standing,
  };
};
