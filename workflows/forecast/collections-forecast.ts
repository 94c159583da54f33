/**
 * Collections forecast: when each open invoice will be paid, from its customer's own payment
 * history, and the expected cash-in per week (docs/adr/0034-collections-forecast-and-validation.md).
 *
 * Days to pay are modelled as a discrete-time survival (a daily hazard of settlement), fitted with
 * censoring: a paid invoice is an event at its days to pay, an open one is censored at its age, so
 * the invoices that never pay make old open invoices unlikely to pay instead of being ignored. Each
 * customer's daily hazard is shrunk towards the seller's pooled hazard (a beta prior of strength
 * `priorStrength` invoices at risk), so a customer with little history borrows from the pool and one
 * with a long history follows its own. A customer's history is recency weighted with a half-life of
 * ten of its own gaps between transactions (its moving average of days between transactions over 10
 * invoices), at least `minHalfLifeDays`. Weekly totals sum independent per-invoice outcomes: their
 * mean and variance give normal 80 and 95 percent bands, clipped to [0, open balance].
 *
 * The fit is fed one customer at a time (its invoices and settlements) and keeps per customer only a
 * bounded summary, so a seller's forecast needs memory for its customers and open invoices, not for
 * its ledger.
 */

export const DAY_MS = 86_400_000;
export const dayOf = (date: Date): number => Math.floor(date.getTime() / DAY_MS);
export const dateOfDay = (day: number): Date => new Date(day * DAY_MS);

/** Days to pay beyond this are treated as never within reach (censored there). */
const MAX_DAYS = 730;
/** The most recent paid invoices a customer's fit keeps. */
const MAX_SAMPLES = 60;
const Z80 = 1.2815515655446004;
const Z95 = 1.959963984540054;

export type CollectionsOptions = {
  asOf: Date;
  horizonWeeks: number;
  /**
   * Pseudo-count of invoices at risk behind the pooled hazard in each customer's estimate; 'auto'
   * estimates it from the seller's data (Buhlmann's credibility constant, see priorStrengthOf).
   */
  priorStrength: number | 'auto';
  minHalfLifeDays: number;
};

export const defaultCollectionsOptions = (asOf: Date): CollectionsOptions => ({
  asOf,
  horizonWeeks: 13,
  priorStrength: 'auto',
  minHalfLifeDays: 365,
});

export type CollectionsInvoice = {
  providerId: string;
  customerId: number;
  docNumber: string;
  transactionDate: Date;
  dueDate: Date;
  amount: number;
};

/** A payment or credit memo's application to one invoice. */
export type InvoiceSettlement = { invoiceProviderId: string; date: Date; amount: number; cash: boolean };

/** One customer's ledger as the fit reads it: every invoice and every application to them. */
export type CustomerLedger = {
  customerId: number;
  invoices: readonly CollectionsInvoice[];
  settlements: readonly InvoiceSettlement[];
};

type OpenInvoice = {
  providerId: string;
  docNumber: string;
  transactionDay: number;
  dueDay: number;
  age: number;
  balance: number;
};

/** What the fit keeps of a customer: its weighted durations, its open invoices, the baseline's mean. */
type CustomerSummary = {
  customerId: number;
  /** Days to pay of recent paid invoices, with their recency weights. */
  paid: { days: number; weight: number }[];
  open: OpenInvoice[];
  /** Unweighted mean days to pay (the baseline), null without a paid invoice. */
  meanDaysToPay: number | null;
  movingAvgDaysBetween: number | null;
  /** Cash received per horizon week on the invoices open at asOf, when the ledger runs past asOf. */
  actual: number[];
};

export type WeekBand = {
  startDay: number;
  mean: number;
  lower80: number;
  upper80: number;
  lower95: number;
  upper95: number;
};

export type InvoicePayForecast = {
  providerId: string;
  docNumber: string;
  transactionDay: number;
  dueDay: number;
  balance: number;
  expectedPayDay: number;
  payDayLower80: number;
  payDayUpper80: number;
  payDayLower95: number;
  payDayUpper95: number;
  paidWithinHorizon: number;
};

export type CustomerCollections = {
  customerId: number;
  openBalance: number;
  weeks: WeekBand[];
  invoices: InvoicePayForecast[];
  /** The baseline's expected cash per week: each open invoice paid at its date + the mean days to pay. */
  baseline: number[];
  actual: number[];
};

export type CollectionsResult = {
  asOfDay: number;
  method: string;
  priorStrength: number;
  openInvoices: number;
  openBalance: number;
  weeks: WeekBand[];
  beyondHorizon: number;
  baseline: number[];
  /** The baseline without the invoices whose baseline date has passed (they count as never paid). */
  baselineFutureOnly: number[];
  actual: number[];
  customers: CustomerCollections[];
};

/**
 * Empirical Bayes: Buhlmann's credibility constant k = expected within-customer variance / variance of
 * the customers' true means, of log(1 + days to pay); a customer with n invoices then weighs its own
 * history n / (n + k). Clamped to [0.5, 50]: 50 when customers do not differ measurably.
 */
export const priorStrengthOf = (customers: readonly (readonly number[])[]): number => {
  const groups = customers.filter((days) => days.length >= 2).map((days) => days.map((d) => Math.log1p(d)));
  if (groups.length < 2) return 50;
  let total = 0;
  let squares = 0;
  let withinSum = 0;
  let withinDegrees = 0;
  let n = 0;
  for (const group of groups) {
    const mean = group.reduce((a, b) => a + b, 0) / group.length;
    withinSum += group.reduce((sum, x) => sum + (x - mean) ** 2, 0);
    withinDegrees += group.length - 1;
    total += mean * group.length;
    n += group.length;
  }
  const grand = total / n;
  let sumSquaredSizes = 0;
  for (const group of groups) {
    const mean = group.reduce((a, b) => a + b, 0) / group.length;
    squares += group.length * (mean - grand) ** 2;
    sumSquaredSizes += group.length ** 2;
  }
  const within = withinSum / withinDegrees;
  const between = (squares - (groups.length - 1) * within) / (n - sumSquaredSizes / n);
  if (!(between > 0)) return 50;
  return Math.min(50, Math.max(0.5, within / between));
};

const movingAverageGap = (transactionDays: readonly number[]): number | null => {
  const days = [...transactionDays].sort((a, b) => a - b).slice(-11);
  if (days.length < 2) return null;
  return ((days[days.length - 1] ?? 0) - (days[0] ?? 0)) / (days.length - 1);
};

/** The fit's pass over the ledger: feed every customer once (any order), then `finish`. */
export const createCollectionsForecaster = (options: CollectionsOptions) => {
  const asOfDay = dayOf(options.asOf);
  const horizonDays = options.horizonWeeks * 7;
  const summaries: CustomerSummary[] = [];
  // The seller's pool, weighted as each customer's own: events and censorings per day of age.
  const poolEvents = new Float64Array(MAX_DAYS + 1);
  const poolCensored = new Float64Array(MAX_DAYS + 1);
  let poolPaidDays = 0;
  let poolPaidCount = 0;

  const addCustomer = (ledger: CustomerLedger) => {
    const settlementsOf = new Map<string, InvoiceSettlement[]>();
    for (const settlement of ledger.settlements) {
      const list = settlementsOf.get(settlement.invoiceProviderId);
      if (list) list.push(settlement);
      else settlementsOf.set(settlement.invoiceProviderId, [settlement]);
    }
    const known = ledger.invoices.filter((invoice) => dayOf(invoice.transactionDate) <= asOfDay);
    const movingAvgDaysBetween = movingAverageGap(known.map((invoice) => dayOf(invoice.transactionDate)));
    const halfLife = Math.max(options.minHalfLifeDays, 10 * (movingAvgDaysBetween ?? 0));
    const paid: { days: number; weight: number; payDay: number }[] = [];
    const open: OpenInvoice[] = [];
    const actual = new Array<number>(options.horizonWeeks).fill(0);
    let paidDaysSum = 0;
    for (const invoice of known) {
      const transactionDay = dayOf(invoice.transactionDate);
      let balance = invoice.amount;
      let lastDay = transactionDay;
      const later: InvoiceSettlement[] = [];
      for (const settlement of settlementsOf.get(invoice.providerId) ?? []) {
        const day = dayOf(settlement.date);
        if (day <= asOfDay) {
          balance -= settlement.amount;
          lastDay = Math.max(lastDay, day);
        } else later.push(settlement);
      }
      if (invoice.amount <= 0) continue;
      if (balance <= 0) {
        const days = Math.min(MAX_DAYS, Math.max(0, lastDay - transactionDay));
        paid.push({ days, weight: 0.5 ** ((asOfDay - lastDay) / halfLife), payDay: lastDay });
        paidDaysSum += days;
        continue;
      }
      open.push({
        providerId: invoice.providerId,
        docNumber: invoice.docNumber,
        transactionDay,
        dueDay: dayOf(invoice.dueDate),
        age: asOfDay - transactionDay,
        balance,
      });
      for (const settlement of later) {
        const week = Math.floor((dayOf(settlement.date) - asOfDay - 1) / 7);
        if (settlement.cash && week < options.horizonWeeks)
          actual[week] = (actual[week] ?? 0) + settlement.amount;
      }
    }
    paid.sort((a, b) => b.payDay - a.payDay);
    const kept = paid.slice(0, MAX_SAMPLES).map(({ days, weight }) => ({ days, weight }));
    for (const sample of kept) poolEvents[sample.days] = (poolEvents[sample.days] ?? 0) + sample.weight;
    for (const invoice of open) {
      const age = Math.min(MAX_DAYS, invoice.age);
      poolCensored[age] = (poolCensored[age] ?? 0) + 1;
    }
    poolPaidDays += paidDaysSum;
    poolPaidCount += paid.length;
    if (open.length === 0 && kept.length === 0) return;
    summaries.push({
      customerId: ledger.customerId,
      paid: kept,
      open,
      meanDaysToPay: paid.length > 0 ? paidDaysSum / paid.length : null,
      movingAvgDaysBetween,
      actual,
    });
  };

  const finish = (): CollectionsResult => {
    // Pooled daily hazard: events on day d over those still unpaid at d (censored at age a: unpaid through a).
    const poolHazard = new Float64Array(MAX_DAYS + 1);
    let atRisk = 0;
    for (let day = MAX_DAYS; day >= 0; day -= 1) {
      atRisk += (poolEvents[day] ?? 0) + (poolCensored[day] ?? 0);
      poolHazard[day] = atRisk > 0 ? (poolEvents[day] ?? 0) / atRisk : 0;
    }
    const poolMeanDays = poolPaidCount > 0 ? poolPaidDays / poolPaidCount : 30;
    const priorStrength =
      options.priorStrength === 'auto'
        ? priorStrengthOf(summaries.map((summary) => summary.paid.map((sample) => sample.days)))
        : options.priorStrength;
    const weeks = options.horizonWeeks;
    const sellerMean = new Float64Array(weeks);
    const sellerVariance = new Float64Array(weeks);
    const sellerBaseline = new Array<number>(weeks).fill(0);
    const sellerBaselineFuture = new Array<number>(weeks).fill(0);
    const sellerActual = new Array<number>(weeks).fill(0);
    let openBalance = 0;
    let openInvoices = 0;
    let beyondHorizon = 0;
    const customers: CustomerCollections[] = [];
    const events = new Float64Array(MAX_DAYS + 1);
    const atRiskOwn = new Float64Array(MAX_DAYS + 2);
    const hazard = new Float64Array(MAX_DAYS + 1);

    for (const summary of summaries) {
      events.fill(0);
      atRiskOwn.fill(0);
      for (const sample of summary.paid) {
        events[sample.days] = (events[sample.days] ?? 0) + sample.weight;
        atRiskOwn[sample.days] = (atRiskOwn[sample.days] ?? 0) + sample.weight;
      }
      for (const invoice of summary.open) {
        const age = Math.min(MAX_DAYS, invoice.age);
        atRiskOwn[age] = (atRiskOwn[age] ?? 0) + 1;
      }
      let risk = 0;
      for (let day = MAX_DAYS; day >= 0; day -= 1) {
        risk += atRiskOwn[day] ?? 0;
        hazard[day] = ((events[day] ?? 0) + priorStrength * (poolHazard[day] ?? 0)) / (risk + priorStrength);
      }
      const customerMean = new Float64Array(weeks);
      const customerVariance = new Float64Array(weeks);
      const baseline = new Array<number>(weeks).fill(0);
      const invoices: InvoicePayForecast[] = [];
      let customerOpen = 0;
      for (const invoice of summary.open) {
        customerOpen += invoice.balance;
        const forecast = forecastInvoice(invoice, { hazard, asOfDay, horizonDays });
        invoices.push(forecast.invoice);
        forecast.weekly.forEach((probability, week) => {
          const cash = probability * invoice.balance;
          customerMean[week] = (customerMean[week] ?? 0) + cash;
          customerVariance[week] =
            (customerVariance[week] ?? 0) +
            invoice.balance * invoice.balance * probability * (1 - probability);
        });
        beyondHorizon += invoice.balance * (1 - forecast.invoice.paidWithinHorizon);
        const meanDays = summary.meanDaysToPay ?? poolMeanDays;
        const dueByBaseline = Math.round(invoice.transactionDay + meanDays);
        const baselineDay = Math.max(asOfDay + 1, dueByBaseline);
        const baselineWeek = Math.floor((baselineDay - asOfDay - 1) / 7);
        if (baselineWeek < weeks) baseline[baselineWeek] = (baseline[baselineWeek] ?? 0) + invoice.balance;
        if (baselineWeek < weeks && dueByBaseline > asOfDay)
          sellerBaselineFuture[baselineWeek] = (sellerBaselineFuture[baselineWeek] ?? 0) + invoice.balance;
      }
      for (let week = 0; week < weeks; week += 1) {
        sellerMean[week] = (sellerMean[week] ?? 0) + (customerMean[week] ?? 0);
        sellerVariance[week] = (sellerVariance[week] ?? 0) + (customerVariance[week] ?? 0);
        sellerBaseline[week] = (sellerBaseline[week] ?? 0) + (baseline[week] ?? 0);
        sellerActual[week] = (sellerActual[week] ?? 0) + (summary.actual[week] ?? 0);
      }
      openBalance += customerOpen;
      openInvoices += summary.open.length;
      if (summary.open.length > 0)
        customers.push({
          customerId: summary.customerId,
          openBalance: customerOpen,
          weeks: bandsOf(customerMean, customerVariance, { asOfDay, cap: customerOpen }),
          invoices,
          baseline,
          actual: summary.actual,
        });
    }
    return {
      asOfDay,
      method: 'survival-shrunk-to-pool',
      priorStrength,
      openInvoices,
      openBalance,
      weeks: bandsOf(sellerMean, sellerVariance, { asOfDay, cap: openBalance }),
      beyondHorizon,
      baseline: sellerBaseline,
      baselineFutureOnly: sellerBaselineFuture,
      actual: sellerActual,
      customers: customers.sort((a, b) => a.customerId - b.customerId),
    };
  };

  return { addCustomer, finish };
};

const bandsOf = (
  mean: Float64Array,
  variance: Float64Array,
  context: { asOfDay: number; cap: number },
): WeekBand[] =>
  Array.from(mean, (value, week) => {
    const sd = Math.sqrt(variance[week] ?? 0);
    const clip = (x: number) => Math.min(context.cap, Math.max(0, x));
    return {
      startDay: context.asOfDay + 1 + week * 7,
      mean: value,
      lower80: clip(value - Z80 * sd),
      upper80: clip(value + Z80 * sd),
      lower95: clip(value - Z95 * sd),
      upper95: clip(value + Z95 * sd),
    };
  });

/**
 * One open invoice's pay day: its survival from its age on under the customer's hazard, as the
 * chance it is paid in each horizon week and quantiles of its pay day (the last day of reach when a
 * quantile lies beyond it: never paid within MAX_DAYS of issue).
 */
const forecastInvoice = (
  invoice: OpenInvoice,
  context: { hazard: Float64Array; asOfDay: number; horizonDays: number },
) => {
  const weekly = new Array<number>(Math.ceil(context.horizonDays / 7)).fill(0);
  const quantiles = [0.025, 0.1, 0.5, 0.9, 0.975];
  const found = new Array<number | null>(quantiles.length).fill(null);
  let survival = 1;
  let paidWithinHorizon = 0;
  let weightedDay = 0;
  let paidMass = 0;
  const lastAge = Math.max(MAX_DAYS, invoice.age + context.horizonDays);
  for (let age = invoice.age + 1, step = 1; age <= lastAge; age += 1, step += 1) {
    // Beyond the fitted range the hazard of its last day goes on (an old invoice's small chance).
    const hazard = context.hazard[Math.min(age, MAX_DAYS)] ?? 0;
    const paidToday = survival * hazard;
    survival -= paidToday;
    paidMass += paidToday;
    weightedDay += paidToday * (context.asOfDay + step);
    if (step <= context.horizonDays) {
      const week = Math.floor((step - 1) / 7);
      weekly[week] = (weekly[week] ?? 0) + paidToday;
      paidWithinHorizon += paidToday;
    }
    quantiles.forEach((q, i) => {
      if (found[i] === null && 1 - survival >= q) found[i] = context.asOfDay + step;
    });
  }
  const lastDay = context.asOfDay + (lastAge - invoice.age);
  const at = (i: number) => found[i] ?? lastDay;
  return {
    weekly,
    invoice: {
      providerId: invoice.providerId,
      docNumber: invoice.docNumber,
      transactionDay: invoice.transactionDay,
      dueDay: invoice.dueDay,
      balance: invoice.balance,
      // The mean pay day given it is paid at all; the median when nearly nothing is expected.
      expectedPayDay: paidMass > 0.05 ? Math.round(weightedDay / paidMass) : at(2),
      payDayLower95: at(0),
      payDayLower80: at(1),
      payDayUpper80: at(3),
      payDayUpper95: at(4),
      paidWithinHorizon: Math.min(1, Math.max(0, paidWithinHorizon)),
    },
  };
};
