import { readFileSync, writeFileSync } from 'node:fs';
import { forecastRevenue, type SeriesForecast } from '../workflows/forecast/revenue-forecaster';
import { formatCsv, parseSeriesCsv, SeriesCsvError } from '../workflows/forecast/series-csv';

const frequencies = {
  weekly: { seasonLength: 52, horizon: 13 },
  monthly: { seasonLength: 12, horizon: 12 },
} as const;

export const forecastUsage = `Usage: ledgerwise forecast --input series.csv [--frequency weekly|monthly] [--horizon N]
                           [--output forecasts.csv] [--intervals]

  Input: one series per row, its id then its values oldest first (rows may differ in length); a first
  row whose second cell is not a number is a header and is skipped.
  Output (stdout without --output): a header row, then per series its id and the horizon's point
  forecasts (h1..hN); --intervals adds lower80, upper80, lower95 and upper95 columns for each step.
  Weekly: season length 52, horizon 13 by default; monthly: 12 and 12.
`;

type ForecastArgs = {
  input: string;
  output?: string;
  frequency: keyof typeof frequencies;
  horizon: number;
  intervals: boolean;
};

class UsageError extends Error {}

const parseArgs = (args: readonly string[]): ForecastArgs => {
  const values = new Map<string, string>();
  let intervals = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--intervals') {
      intervals = true;
      continue;
    }
    const match = /^--(input|output|frequency|horizon)(?:=(.*))?$/.exec(arg);
    if (!match) throw new UsageError(`unknown argument ${arg}`);
    const [, name = '', inline] = match;
    const value = inline ?? args[++i];
    if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
    values.set(name, value);
  }
  const input = values.get('input');
  if (!input) throw new UsageError('--input is required');
  const frequency = values.get('frequency') ?? 'weekly';
  if (frequency !== 'weekly' && frequency !== 'monthly')
    throw new UsageError(`--frequency must be weekly or monthly, got ${frequency}`);
  const rawHorizon = values.get('horizon');
  const horizon = rawHorizon === undefined ? frequencies[frequency].horizon : Number(rawHorizon);
  if (!Number.isInteger(horizon) || horizon < 1 || horizon > 1000)
    throw new UsageError(`--horizon must be a whole number from 1 to 1000, got ${rawHorizon}`);
  return { input, output: values.get('output'), frequency, horizon, intervals };
};

/** Six decimals at most: enough for money, without binary noise in the file. */
const rounded = (value: number) => Math.round(value * 1e6) / 1e6;

const header = (horizon: number, intervals: boolean) => {
  const steps = (prefix: string) => Array.from({ length: horizon }, (_, h) => `${prefix}${h + 1}`);
  return [
    'id',
    ...steps('h'),
    ...(intervals
      ? [...steps('lower80_h'), ...steps('upper80_h'), ...steps('lower95_h'), ...steps('upper95_h')]
      : []),
  ];
};

const row = (id: string, forecast: SeriesForecast, intervals: boolean) => [
  id,
  ...[
    ...forecast.mean,
    ...(intervals
      ? [...forecast.lower80, ...forecast.upper80, ...forecast.lower95, ...forecast.upper95]
      : []),
  ].map(rounded),
];

/** `ledgerwise forecast`: forecasts every series of a CSV with the product's revenue forecaster. */
export const runForecastCommand = (args: readonly string[]): number => {
  let options: ForecastArgs;
  try {
    options = parseArgs(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`ledgerwise forecast: ${error.message}\n\n${forecastUsage}`);
    return 2;
  }
  try {
    const { seasonLength } = frequencies[options.frequency];
    const series = parseSeriesCsv(readFileSync(options.input, 'utf8'));
    const rows = series.map(({ id, values }) =>
      row(id, forecastRevenue(values, { horizon: options.horizon, seasonLength }), options.intervals),
    );
    const text = formatCsv([header(options.horizon, options.intervals), ...rows]);
    if (options.output) writeFileSync(options.output, text);
    else process.stdout.write(text);
    return 0;
  } catch (error) {
    if (error instanceof SeriesCsvError) {
      process.stderr.write(`ledgerwise forecast: ${options.input}: ${error.message}\n`);
      return 1;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') {
      process.stderr.write(`ledgerwise forecast: ${(error as Error).message}\n`);
      return 1;
    }
    throw error;
  }
};
