/**
 * The benchmark harness: every figure is measured beside a baseline measured in the same run, so
 * results read as ratios that survive a slower or busier machine. Results go to bench/results/<suite>.json.
 */

/** What a figure should reach, as the issue that asked for it states it. */
export type Target =
  /** value / baseline must be >= or <= this ratio (e.g. at least 0.7x the raw ceiling). */
  | { kind: 'ratio'; op: '>=' | '<='; value: number; source: string }
  /** value itself must be >= or <= this (e.g. p99 under 50 ms). */
  | { kind: 'absolute'; op: '>=' | '<='; value: number; source: string };

export type Figure = {
  name: string;
  unit: string;
  value: number;
  /** What the figure is compared with, measured in the same run on the same data. */
  baseline: { name: string; value: number };
  /** Throughput is better higher; latency and time are better lower. */
  higherIsBetter: boolean;
  target?: Target;
};

export type SuiteContext = {
  log: (message: string) => void;
};

export type BenchSuite = {
  name: string;
  description: string;
  /** Sizes and other knobs; defaults finish in a few minutes on 2 cores. Override with --name=value. */
  params: Record<string, number>;
  run: (params: Record<string, number>, context: SuiteContext) => Promise<Figure[]>;
};

export type FigureResult = Figure & { ratio: number; meetsTarget: boolean | null };

export type SuiteResult = {
  suite: string;
  description: string;
  params: Record<string, number>;
  startedAt: string;
  durationSeconds: number;
  machine: {
    cpus: number;
    memoryGiB: number;
    node: string;
    platform: string;
    /** The 1-minute load average over the run, sampled every 5 s (other work on a shared machine). */
    loadAverage1m?: { before: number; mean: number; max: number; after: number };
  };
  figures: FigureResult[];
};

export const ratioOf = (figure: Figure): number =>
  figure.baseline.value === 0 ? Number.NaN : figure.value / figure.baseline.value;

export const meetsTarget = (figure: Figure): boolean | null => {
  const { target } = figure;
  if (!target) return null;
  const measured = target.kind === 'ratio' ? ratioOf(figure) : figure.value;
  return target.op === '>=' ? measured >= target.value : measured <= target.value;
};

/** Parses `--size=1000 --batches=3` over the suite's defaults; unknown or non-numeric params are errors. */
export const parseParams = (
  defaults: Record<string, number>,
  args: readonly string[],
): Record<string, number> => {
  const params = { ...defaults };
  for (const arg of args) {
    const match = /^--([\w-]+)=(.+)$/.exec(arg);
    if (!match) throw new Error(`Unrecognised argument ${arg}; use --name=value`);
    const [, name = '', raw = ''] = match;
    if (!(name in defaults))
      throw new Error(`Unknown parameter ${name}; known: ${Object.keys(defaults).join(', ')}`);
    const value = Number(raw);
    if (!Number.isFinite(value)) throw new Error(`Parameter ${name} must be a number, got ${raw}`);
    params[name] = value;
  }
  return params;
};

const formatNumber = (value: number): string =>
  Number.isNaN(value) ? 'n/a' : Math.abs(value) >= 100 ? value.toFixed(0) : value.toPrecision(3);

const describeTarget = (target: Target): string =>
  target.kind === 'ratio' ? `${target.op} ${target.value}x` : `${target.op} ${target.value}`;

/** A plain-text table of the figures, for the terminal. */
export const formatTable = (result: SuiteResult): string => {
  const rows = result.figures.map((f) => [
    f.name,
    `${formatNumber(f.value)} ${f.unit}`,
    `${f.baseline.name}: ${formatNumber(f.baseline.value)} ${f.unit}`,
    `${formatNumber(f.ratio)}x`,
    f.target ? `${describeTarget(f.target)} (${f.target.source})` : '-',
    f.meetsTarget === null ? '-' : f.meetsTarget ? 'met' : 'MISSED',
  ]);
  const header = ['figure', 'value', 'baseline (same run)', 'ratio', 'target', 'result'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
};

/** Percentile of a sample (nearest rank); the sample need not be sorted. */
export const percentile = (sample: readonly number[], p: number): number => {
  if (sample.length === 0) return Number.NaN;
  const sorted = [...sample].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
};
