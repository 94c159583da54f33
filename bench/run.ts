/**
 * `npm run bench -- <suite> [--param=value ...]`: runs one suite of bench/suites against the real local
 * servers, prints its figures as a table and writes bench/results/<suite>.json.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { formatTable, meetsTarget, parseParams, ratioOf, type BenchSuite, type SuiteResult } from './harness';

const suitesDir = join(__dirname, 'suites');
const resultsDir = join(__dirname, 'results');

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * `<suite>.json` for a run with the default parameters, `<suite>-<param>-<value>...json` otherwise,
 * so a larger run (say --invoices=1000000) sits beside the default one instead of replacing it.
 */
const resultName = (suite: BenchSuite, params: Record<string, number>) =>
  [
    suite.name,
    ...Object.entries(params)
      .filter(([name, value]) => suite.params[name] !== value)
      .map(([name, value]) => `${name}-${value}`),
  ].join('-');

const availableSuites = () =>
  readdirSync(suitesDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => f.replace(/\.ts$/, ''));

const main = async () => {
  const [suiteName, ...args] = process.argv.slice(2);
  if (!suiteName || !availableSuites().includes(suiteName)) {
    process.stderr.write(
      `Usage: npm run bench -- <suite> [--param=value ...]\nSuites: ${availableSuites().join(', ')}\n`,
    );
    process.exitCode = 2;
    return;
  }
  const { suite } = (await import(join(suitesDir, suiteName))) as { suite: BenchSuite };
  const params = parseParams(suite.params, args);
  process.stdout.write(
    `Benchmark ${suite.name}: ${suite.description}\nParameters: ${JSON.stringify(params)}\n`,
  );
  const started = Date.now();
  // The machine may be shared: its load during the run tells a reader how far to trust the figures.
  const loads = [loadavg()[0] ?? 0];
  const sampler = setInterval(() => loads.push(loadavg()[0] ?? 0), 5000);
  const figures = await suite.run(params, { log: (message) => process.stdout.write(`  ${message}\n`) });
  clearInterval(sampler);
  loads.push(loadavg()[0] ?? 0);
  const result: SuiteResult = {
    suite: suite.name,
    description: suite.description,
    params,
    startedAt: new Date(started).toISOString(),
    durationSeconds: Math.round((Date.now() - started) / 100) / 10,
    machine: {
      cpus: cpus().length,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      loadAverage1m: {
        before: round2(loads[0] ?? 0),
        mean: round2(loads.reduce((a, b) => a + b, 0) / loads.length),
        max: round2(Math.max(...loads)),
        after: round2(loads.at(-1) ?? 0),
      },
    },
    figures: figures.map((figure) => ({
      ...figure,
      ratio: ratioOf(figure),
      meetsTarget: meetsTarget(figure),
    })),
  };
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${resultName(suite, params)}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`\n${formatTable(result)}\n\nWritten to ${file}\n`);
  // Benchmarks report; they never fail a build on speed (timed assertions do not belong in tests).
  process.exit(0);
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
