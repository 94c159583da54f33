/**
 * Forecast speed (issue 15): series per second per core of forecastRevenue beside statsforecast's
 * AutoETS (fit and 80/95 forecast, one thread, after a warm-up) on the same series in the same run:
 * DEMO sellers' weekly revenue (season 52, horizon 13) and the monthly public series (season 12,
 * horizon 12), each history cut at a few origins. Target: at least 0.5x AutoETS's rate.
 */
import { performance } from 'node:perf_hooks';
import { forecastRevenue } from '../../workflows/forecast/revenue-forecaster';
import {
  demoDataset,
  publicDatasets,
  rollingOriginTasks,
  statsforecastEtsSeconds,
  statsforecastPython,
  type ForecastDataset,
  type ForecastTask,
} from '../forecast/forecast-bench-data';
import type { BenchSuite, Figure } from '../harness';
import { collectionsSpeedFigures } from '../collections-forecast-bench';

/** COLLECTIONS' collections-forecast speed figures join this suite here (same run); empty until then. */
export const extraSpeedFigures: ((log: (message: string) => void) => Promise<Figure[]>)[] = [];
extraSpeedFigures.push(collectionsSpeedFigures);

/** Seconds for forecastRevenue over the tasks, the best of `rounds` passes after one warm-up pass. */
const ourSeconds = (tasks: readonly ForecastTask[], dataset: ForecastDataset, rounds: number) => {
  const options = { horizon: dataset.horizon, seasonLength: dataset.seasonLength };
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round <= rounds; round++) {
    const started = performance.now();
    for (const task of tasks) forecastRevenue(task.history, options);
    const seconds = (performance.now() - started) / 1000;
    if (round > 0) best = Math.min(best, seconds);
  }
  return best;
};

export const suite: BenchSuite = {
  name: 'forecast-speed',
  description: 'forecastRevenue series/s per core beside statsforecast AutoETS on the same series, same run',
  params: { demoSellers: 24, origins: 4, rounds: 3 },
  run: async (params, { log }) => {
    const python = statsforecastPython();
    const monthly = publicDatasets().filter((dataset) => dataset.seasonLength === 12);
    const groups: { label: string; dataset: ForecastDataset; tasks: ForecastTask[] }[] = [
      { label: 'weekly DEMO sellers', dataset: demoDataset(params.demoSellers ?? 24), tasks: [] },
      ...monthly.map((dataset) => ({ label: `monthly ${dataset.name}`, dataset, tasks: [] })),
    ].map((group) => ({ ...group, tasks: rollingOriginTasks(group.dataset, params.origins ?? 4) }));

    const figures: Figure[] = [];
    for (const { label, dataset, tasks } of groups) {
      const lengths = tasks.map((task) => task.history.length);
      log(`${label}: ${tasks.length} series of ${Math.min(...lengths)} to ${Math.max(...lengths)} points`);
      const ours = ourSeconds(tasks, dataset, params.rounds ?? 3);
      const theirs = statsforecastEtsSeconds(python, tasks, dataset);
      log(
        `  forecastRevenue ${(tasks.length / ours).toFixed(0)}/s, AutoETS ${(tasks.length / theirs).toFixed(1)}/s`,
      );
      figures.push({
        name: `forecastRevenue, ${label} (${tasks.length} series)`,
        unit: 'series/s',
        value: tasks.length / ours,
        baseline: { name: 'statsforecast AutoETS', value: tasks.length / theirs },
        higherIsBetter: true,
        target: { kind: 'ratio', op: '>=', value: 0.5, source: 'issue 15: at least 0.5x AutoETS' },
      });
    }
    for (const extra of extraSpeedFigures) figures.push(...(await extra(log)));
    return figures;
  },
};
