/**
 * `npm run bench -- <suite> [--param=value ...]`: runs one suite of bench/suites against the real local
 * servers, prints its figures as a table and writes bench/results/<suite>.json.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { formatTable, meetsTarget, parseParams, ratioOf, type BenchSuite, type SuiteResult } from './harness';

const suitesDir = join(__dirname, 'suites');
const resultsDir = join(__dirname, 'results');

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
  const figures = await suite.run(params, { log: (message) => process.stdout.write(`  ${message}\n`) });
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
    },
    figures: figures.map((figure) => ({
      ...figure,
      ratio: ratioOf(figure),
      meetsTarget: meetsTarget(figure),
    })),
  };
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${suite.name}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`\n${formatTable(result)}\n\nWritten to ${file}\n`);
  // Benchmarks report; they never fail a build on speed (timed assertions do not belong in tests).
  process.exit(0);
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
