/**
 * What the forecast suites share: the data sets (public series exported once to bench/data/forecast,
 * DEMO sellers' weekly revenue computed from generated invoices), rolling-origin tasks, the M4 scores
 * (sMAPE, MASE, OWA against Naive2) and the statsforecast side run in its venv.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forecastRevenue } from '../../workflows/forecast/revenue-forecaster';
import { formatCsv, parseSeriesCsv, type NamedSeries } from '../../workflows/forecast/series-csv';
import { demoCustomerHistory } from '../../workflows/demo/demo-customer-history';
import { dayOfIso } from '../../workflows/demo/demo-dates';
import { demoCatalogue } from '../../workflows/demo/demo-products';
import type { DemoProfile } from '../../workflows/demo/demo-profile';

export type ForecastDataset = {
  name: string;
  description: string;
  /** What the product passes to forecastRevenue: 52 weekly, 12 monthly. */
  seasonLength: number;
  horizon: number;
  /**
   * The period of Naive2's seasonality test and of MASE's scale, as the M4 defined them per frequency
   * (yearly 1, quarterly 4, monthly 12, weekly 1): the held-out weekly benchmark is scored that way.
   */
  scoringPeriod: number;
  series: NamedSeries[];
};

/** One forecast to make: the history up to an origin and what came after it. */
export type ForecastTask = { id: string; history: number[]; actual: number[] };

const dataDir = join(__dirname, '..', 'data', 'forecast');

const scoringPeriodOf = (seasonLength: number) => (seasonLength === 52 ? 1 : seasonLength);

export const publicDatasets = (): ForecastDataset[] => {
  const manifest = JSON.parse(readFileSync(join(dataDir, 'datasets.json'), 'utf8')) as {
    name: string;
    file: string;
    description: string;
    seasonLength: number;
    horizon: number;
  }[];
  return manifest.map((entry) => ({
    name: entry.name,
    description: entry.description,
    seasonLength: entry.seasonLength,
    horizon: entry.horizon,
    scoringPeriod: scoringPeriodOf(entry.seasonLength),
    series: parseSeriesCsv(readFileSync(join(dataDir, entry.file), 'utf8')),
  }));
};

const DEMO_SIZES = [24, 60, 150, 360, 1200, 6000];

/** Weekly invoiced revenue (in currency units) of a DEMO seller from its start to `untilIso`. */
export const demoWeeklyRevenue = (profile: DemoProfile, untilIso: string): number[] => {
  const startDay = dayOfIso(profile.startDate);
  const untilDay = dayOfIso(untilIso);
  const weeks = Math.floor((untilDay - startDay) / 7);
  const revenue = Array.from({ length: weeks }, () => 0);
  const catalogue = demoCatalogue(profile);
  for (let customerId = 1; customerId <= catalogue.customers; customerId++) {
    const history = demoCustomerHistory(profile, {
      customerId,
      customers: catalogue.customers,
      prices: catalogue.prices,
      untilDay,
    });
    for (const invoice of history.invoices) {
      const week = Math.floor((invoice.day - startDay) / 7);
      if (week >= 0 && week < weeks) revenue[week] = (revenue[week] ?? 0) + invoice.amount / 100;
    }
  }
  return revenue;
};

/** DEMO sellers of several sizes (a few invoices a year to thousands), weekly, as the product sees them. */
export const demoDataset = (sellers: number): ForecastDataset => ({
  name: 'demo-weekly',
  description: `DEMO sellers' weekly invoiced revenue, ${sellers} sellers of ${DEMO_SIZES.join('/')} invoices a year, 2022-01 to 2026-11`,
  seasonLength: 52,
  horizon: 13,
  scoringPeriod: 1,
  series: Array.from({ length: sellers }, (_, index) => {
    const profile: DemoProfile = {
      seed: 1000 + index,
      startDate: '2022-01-01',
      invoicesPerYear: DEMO_SIZES[index % DEMO_SIZES.length] ?? 360,
    };
    return {
      id: `demo-${profile.seed}-${profile.invoicesPerYear}`,
      values: demoWeeklyRevenue(profile, '2026-11-01'),
    };
  }),
});

/**
 * Rolling origins: the last `origins` windows of `horizon` points, each forecast from everything
 * before it. Origins that leave fewer than two horizons of history are skipped.
 */
export const rollingOriginTasks = (dataset: ForecastDataset, origins: number): ForecastTask[] =>
  dataset.series.flatMap(({ id, values }) =>
    Array.from({ length: origins }, (_, index) => values.length - dataset.horizon * (index + 1))
      .filter((origin) => origin >= 2 * dataset.horizon)
      .map((origin) => ({
        id: `${id}@${origin}`,
        history: values.slice(0, origin),
        actual: values.slice(origin, origin + dataset.horizon),
      })),
  );

// ---- M4 scores ----

const smape = (actual: readonly number[], forecast: readonly number[]) => {
  let sum = 0;
  actual.forEach((value, h) => {
    const predicted = forecast[h] ?? 0;
    const denominator = Math.abs(value) + Math.abs(predicted);
    sum += denominator === 0 ? 0 : (200 * Math.abs(value - predicted)) / denominator;
  });
  return sum / actual.length;
};

/** MASE's scale: the in-sample mean absolute seasonal difference; null when the history is flat. */
const maseScale = (history: readonly number[], period: number) => {
  const lag = history.length > period ? period : 1;
  let sum = 0;
  for (let t = lag; t < history.length; t++) sum += Math.abs((history[t] ?? 0) - (history[t - lag] ?? 0));
  const scale = sum / Math.max(1, history.length - lag);
  return scale > 0 ? scale : null;
};

const acfAt = (values: readonly number[], maxLag: number) => {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const denominator = values.reduce((sum, v) => sum + (v - mean) ** 2, 0);
  return Array.from({ length: maxLag }, (_, index) => {
    let sum = 0;
    for (let t = index + 1; t < n; t++)
      sum += ((values[t] ?? 0) - mean) * ((values[t - index - 1] ?? 0) - mean);
    return denominator > 0 ? sum / denominator : 0;
  });
};

/** Naive2 of the M4: naive on the series seasonally adjusted by classical multiplicative decomposition
 * when the 90% autocorrelation test at the period says so (series of at least three periods). */
export const naive2 = (history: readonly number[], horizon: number, period: number): number[] => {
  const n = history.length;
  const last = history.at(-1) ?? 0;
  let seasonal = false;
  if (period > 1 && n >= 3 * period && history.every((v) => v > 0)) {
    const acf = acfAt(history, period);
    const limit =
      (1.645 / Math.sqrt(n)) * Math.sqrt(1 + 2 * acf.slice(0, period - 1).reduce((s, a) => s + a * a, 0));
    seasonal = Math.abs(acf[period - 1] ?? 0) > limit;
  }
  if (!seasonal) return Array.from({ length: horizon }, () => last);
  const half = Math.floor(period / 2);
  const sums = Array.from({ length: period }, () => 0);
  const counts = Array.from({ length: period }, () => 0);
  for (let t = half; t + half < n; t++) {
    let trend = 0;
    if (period % 2 === 1) for (let k = -half; k <= half; k++) trend += history[t + k] ?? 0;
    else {
      for (let k = -half + 1; k < half; k++) trend += history[t + k] ?? 0;
      trend += 0.5 * ((history[t - half] ?? 0) + (history[t + half] ?? 0));
    }
    trend /= period;
    sums[t % period] = (sums[t % period] ?? 0) + (history[t] ?? 0) / trend;
    counts[t % period] = (counts[t % period] ?? 0) + 1;
  }
  const raw = sums.map((s, i) => s / Math.max(1, counts[i] ?? 0));
  const mean = raw.reduce((a, b) => a + b, 0) / period;
  const index = raw.map((r) => r / mean);
  const lastAdjusted = last / (index[(n - 1) % period] ?? 1);
  return Array.from({ length: horizon }, (_, h) => lastAdjusted * (index[(n + h) % period] ?? 1));
};

export type Scores = { smape: number; mase: number };

/** Mean sMAPE and MASE of a method over the tasks (tasks with a flat history are left out of MASE). */
export const scoreTasks = (
  tasks: readonly ForecastTask[],
  forecasts: ReadonlyMap<string, readonly number[]>,
  period: number,
): Scores => {
  let smapeSum = 0;
  let maseSum = 0;
  let maseCount = 0;
  for (const task of tasks) {
    const forecast = forecasts.get(task.id);
    if (!forecast) throw new Error(`no forecast for ${task.id}`);
    smapeSum += smape(task.actual, forecast);
    const scale = maseScale(task.history, period);
    if (scale !== null) {
      maseSum +=
        task.actual.reduce((s, v, h) => s + Math.abs(v - (forecast[h] ?? 0)), 0) / task.actual.length / scale;
      maseCount++;
    }
  }
  return { smape: smapeSum / tasks.length, mase: maseSum / Math.max(1, maseCount) };
};

export const owaOf = (scores: Scores, naive2Scores: Scores) =>
  0.5 * (scores.smape / naive2Scores.smape + scores.mase / naive2Scores.mase);

export const forecastAll = (tasks: readonly ForecastTask[], dataset: ForecastDataset) =>
  new Map(
    tasks.map((task) => [
      task.id,
      forecastRevenue(task.history, { horizon: dataset.horizon, seasonLength: dataset.seasonLength }).mean,
    ]),
  );

// ---- statsforecast, in its pinned venv ----

const scriptDir = __dirname;

export const statsforecastPython = (): string =>
  execFileSync('bash', [join(scriptDir, 'statsforecast-venv.sh')], { encoding: 'utf8' }).trim();

const writeTasks = (tasks: readonly ForecastTask[]) => {
  const dir = mkdtempSync(join(tmpdir(), 'ledgerwise-forecast-bench-'));
  const file = join(dir, 'tasks.csv');
  writeFileSync(file, formatCsv(tasks.map((task) => [task.id, ...task.history])));
  return { dir, file };
};

/** AutoETS and AutoTheta forecasts of every task, by model name then task id. */
export const statsforecastForecasts = (
  python: string,
  tasks: readonly ForecastTask[],
  dataset: ForecastDataset,
): Map<string, Map<string, number[]>> => {
  const { dir, file } = writeTasks(tasks);
  const out = join(dir, 'forecasts.csv');
  execFileSync(
    python,
    [
      join(scriptDir, 'statsforecast_baseline.py'),
      'accuracy',
      `--tasks=${file}`,
      `--season-length=${dataset.seasonLength}`,
      `--horizon=${dataset.horizon}`,
      `--out=${out}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 26 },
  );
  const byModel = new Map<string, Map<string, number[]>>();
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const [id = '', model = '', ...values] = line.split(',');
    const forModel = byModel.get(model) ?? new Map<string, number[]>();
    forModel.set(id, values.map(Number));
    byModel.set(model, forModel);
  }
  return byModel;
};

/** Seconds statsforecast's AutoETS takes over the tasks' histories (fit and 80/95 forecast), one thread. */
export const statsforecastEtsSeconds = (
  python: string,
  tasks: readonly ForecastTask[],
  dataset: ForecastDataset,
) => {
  const { file } = writeTasks(tasks);
  const output = execFileSync(
    python,
    [
      join(scriptDir, 'statsforecast_baseline.py'),
      'speed',
      `--tasks=${file}`,
      `--season-length=${dataset.seasonLength}`,
      `--horizon=${dataset.horizon}`,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return (JSON.parse(output) as { series: number; seconds: number }).seconds;
};
