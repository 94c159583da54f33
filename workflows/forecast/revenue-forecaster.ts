// Revenue forecaster: pure, synchronous and deterministic (same history -> same forecast), no I/O.
// First version: seasonal naive with residual-based bands; the model selection follows.

export type SeriesForecast = {
  method: string;
  mean: number[];
  lower80: number[];
  upper80: number[];
  lower95: number[];
  upper95: number[];
};

export type ForecastOptions = { horizon: number; seasonLength: number };

const Z80 = 1.2815515655446004;
const Z95 = 1.959963984540054;

export const forecastRevenue = (history: readonly number[], options: ForecastOptions): SeriesForecast => {
  const { horizon, seasonLength } = options;
  const values = history.map((value) => (Number.isFinite(value) ? value : 0));
  const lag = values.length >= 2 * seasonLength && seasonLength > 1 ? seasonLength : 1;
  const mean: number[] = [];
  for (let step = 0; step < horizon; step++) {
    const source = values.length - lag + (step % lag);
    mean.push(values[source] ?? 0);
  }
  let squares = 0;
  let count = 0;
  for (let index = lag; index < values.length; index++) {
    const error = (values[index] ?? 0) - (values[index - lag] ?? 0);
    squares += error * error;
    count++;
  }
  const sigma = count > 0 ? Math.sqrt(squares / count) : 0;
  const band = (z: number, sign: number) =>
    mean.map((point, step) => Math.max(0, point + sign * z * sigma * Math.sqrt(Math.floor(step / lag) + 1)));
  return {
    method: lag > 1 ? 'seasonal-naive' : 'naive',
    mean,
    lower80: band(Z80, -1),
    upper80: band(Z80, 1),
    lower95: band(Z95, -1),
    upper95: band(Z95, 1),
  };
};
