/**
 * Forecast accuracy (issue 15): rolling-origin backtests of forecastRevenue on public series (exported
 * once from the statsmodels and sktime wheels to bench/data/forecast) and on DEMO sellers' weekly
 * revenue, scored as in the M4 (sMAPE, MASE, OWA against Naive2). Beside it, in the same run and on
 * the same tasks: statsforecast's AutoETS, AutoTheta and their mean (bench/forecast/statsforecast_baseline.py
 * in a pinned venv). Targets: OWA < 1 on every data set; mean OWA at most statsforecast's best.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  demoDataset,
  forecastAll,
  naive2,
  owaOf,
  publicDatasets,
  rollingOriginTasks,
  scoreTasks,
  statsforecastForecasts,
  statsforecastPython,
  type ForecastDataset,
  type Scores,
} from '../forecast/forecast-bench-data';
import type { BenchSuite, Figure } from '../harness';
import { collectionsAccuracyFigures } from '../collections-forecast-bench';

/** Rolling origins per data set: more where there are few series. */
const originsOf = (dataset: ForecastDataset, params: Record<string, number>) =>
  dataset.series.length >= 50 ? (params.originsManySeries ?? 3) : (params.origins ?? 8);

type MethodScores = Scores & { owa: number };
export type DatasetAccuracy = {
  name: string;
  description: string;
  tasks: number;
  horizon: number;
  seasonLength: number;
  scoringPeriod: number;
  naive2: Scores;
  methods: Record<string, MethodScores>;
};

/**
 * COLLECTIONS' collections-forecast figures join this suite through this hook: a function returning
 * more figures (and, if it likes, data sets for the JSON) measured in the same run. Empty until then.
 */
export const extraAccuracyFigures: ((log: (message: string) => void) => Promise<Figure[]>)[] = [];
extraAccuracyFigures.push(collectionsAccuracyFigures);

const OURS = 'ledgerwise';
const SF_METHODS = ['statsforecast AutoETS', 'statsforecast AutoTheta', 'statsforecast mean(ETS,Theta)'];

export const suite: BenchSuite = {
  name: 'forecast-accuracy',
  description:
    'forecastRevenue rolling-origin OWA (M4: sMAPE, MASE vs Naive2) on public and DEMO series beside statsforecast AutoETS/AutoTheta',
  params: { origins: 8, originsManySeries: 3, demoSellers: 24 },
  run: async (params, { log }) => {
    const python = statsforecastPython();
    const datasets = [...publicDatasets(), demoDataset(params.demoSellers ?? 24)];
    const results: DatasetAccuracy[] = [];
    for (const dataset of datasets) {
      const tasks = rollingOriginTasks(dataset, originsOf(dataset, params));
      log(`${dataset.name}: ${tasks.length} forecasts of ${dataset.horizon} steps`);
      const period = dataset.scoringPeriod;
      const naive2Scores = scoreTasks(
        tasks,
        new Map(tasks.map((task) => [task.id, naive2(task.history, dataset.horizon, period)])),
        period,
      );
      const sf = statsforecastForecasts(python, tasks, dataset);
      const ets = sf.get('AutoETS') ?? new Map<string, number[]>();
      const theta = sf.get('AutoTheta') ?? new Map<string, number[]>();
      const mean = new Map(
        [...ets].map(([id, values]) => [id, values.map((v, h) => (v + (theta.get(id)?.[h] ?? v)) / 2)]),
      );
      const forecasts: [string, ReadonlyMap<string, readonly number[]>][] = [
        [OURS, forecastAll(tasks, dataset)],
        [SF_METHODS[0] ?? '', ets],
        [SF_METHODS[1] ?? '', theta],
        [SF_METHODS[2] ?? '', mean],
      ];
      const methods = Object.fromEntries(
        forecasts.map(([name, byTask]) => {
          const scores = scoreTasks(tasks, byTask, period);
          return [name, { ...scores, owa: owaOf(scores, naive2Scores) }];
        }),
      );
      results.push({
        name: dataset.name,
        description: dataset.description,
        tasks: tasks.length,
        horizon: dataset.horizon,
        seasonLength: dataset.seasonLength,
        scoringPeriod: period,
        naive2: naive2Scores,
        methods,
      });
      log(
        `  OWA ${Object.entries(methods)
          .map(([name, scores]) => `${name} ${scores.owa.toFixed(3)}`)
          .join(', ')}`,
      );
    }

    const meanOwa = (method: string) =>
      results.reduce((sum, result) => sum + (result.methods[method]?.owa ?? Number.NaN), 0) / results.length;
    const best = SF_METHODS.map((name) => ({ name, owa: meanOwa(name) })).reduce((a, b) =>
      b.owa < a.owa ? b : a,
    );
    // The per-data-set table, beside the figures that bench/run.ts writes to forecast-accuracy.json.
    writeFileSync(
      join(__dirname, '..', 'results', 'forecast-accuracy-datasets.json'),
      `${JSON.stringify({ datasets: results, meanOwa: Object.fromEntries([OURS, ...SF_METHODS].map((m) => [m, meanOwa(m)])) }, null, 2)}\n`,
    );
    const figures: Figure[] = results.map((result) => ({
      name: `OWA ${result.name} (${result.tasks} forecasts)`,
      unit: 'OWA',
      value: result.methods[OURS]?.owa ?? Number.NaN,
      baseline: { name: 'Naive2', value: 1 },
      higherIsBetter: false,
      target: { kind: 'absolute', op: '<=', value: 1, source: 'issue 15: OWA < 1 on every data set' },
    }));
    figures.push({
      name: 'mean OWA over the data sets',
      unit: 'OWA',
      value: meanOwa(OURS),
      baseline: { name: `best statsforecast (${best.name})`, value: best.owa },
      higherIsBetter: false,
      target: { kind: 'ratio', op: '<=', value: 1, source: "issue 15: mean OWA <= statsforecast's best" },
    });
    for (const extra of extraAccuracyFigures) figures.push(...(await extra(log)));
    return figures;
  },
};
