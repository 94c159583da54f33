/**
 * Revenue forecaster (docs/adr/0032-revenue-forecaster.md): pure, synchronous and deterministic (same
 * history -> same forecast), no I/O, cheap enough to run for every seller on every sync.
 *
 * The M4 recipe: a 90% seasonality test, classical decomposition when seasonal, then on the adjusted
 * series the median of three forecasts: the ETS model (SES, Holt or damped trend) with the lowest AICc,
 * Theta (SES with drift) and the damped trend, parameters fitted to their 1..3-step errors (AMSE).
 * When a Dickey-Fuller and a KPSS test agree (both at 1%) that the adjusted series is stationary, an
 * AR(1) or AR(2) forecast, which returns to the mean, is blended in by inverse in-sample AMSE.
 * Short series fall back to naive, intermittent ones to Croston-SBA. Bands are the models' analytic
 * ETS bands averaged, all values clamped at 0 (revenue).
 */

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

/** Fewer points than this: naive (no model can be fitted honestly). */
const MIN_MODEL_POINTS = 4;
/** Average interval between non-zero values above which a series is intermittent (Syntetos-Boylan). */
const INTERMITTENT_ADI = 1.32;
/** The seasonality test needs three seasons, as in the M4 benchmarks; fewer is never seasonal. */
const MIN_SEASONS_FOR_TEST = 3;
const SBA_ALPHA = 0.1;

/** A point forecast with its h-step standard deviation, on the adjusted (or raw) scale. */
type ModelForecast = { mean: number[]; sd: number[] };

const zeros = (length: number) => Array.from({ length }, () => 0);

const withBands = (method: string, forecast: ModelForecast): SeriesForecast => {
  const clamp = (value: number) => (value > 0 && Number.isFinite(value) ? value : 0);
  const band = (z: number) => forecast.mean.map((point, h) => point + z * (forecast.sd[h] ?? 0));
  return {
    method,
    mean: forecast.mean.map(clamp),
    lower80: band(-Z80).map(clamp),
    upper80: band(Z80).map(clamp),
    lower95: band(-Z95).map(clamp),
    upper95: band(Z95).map(clamp),
  };
};

/** Naive: the last value, bands from the spread of one-step changes growing with sqrt(h). */
const naive = (values: readonly number[], horizon: number): ModelForecast => {
  const last = values.at(-1) ?? 0;
  let squares = 0;
  for (let t = 1; t < values.length; t++) squares += ((values[t] ?? 0) - (values[t - 1] ?? 0)) ** 2;
  const sigma = values.length > 1 ? Math.sqrt(squares / (values.length - 1)) : 0;
  return {
    mean: Array.from({ length: horizon }, () => last),
    sd: Array.from({ length: horizon }, (_, h) => sigma * Math.sqrt(h + 1)),
  };
};

/** Croston with the Syntetos-Boylan correction: demand size over demand interval, both smoothed. */
const crostonSba = (values: readonly number[], horizon: number): ModelForecast => {
  let nonZero = 0;
  let total = 0;
  for (const value of values) {
    if (value !== 0) {
      nonZero++;
      total += value;
    }
  }
  let size = total / nonZero;
  let interval = values.length / nonZero;
  let sinceLast = 1;
  let squares = 0;
  for (const value of values) {
    const error = value - ((1 - SBA_ALPHA / 2) * size) / interval;
    squares += error * error;
    if (value !== 0) {
      size += SBA_ALPHA * (value - size);
      interval += SBA_ALPHA * (sinceLast - interval);
      sinceLast = 1;
    } else sinceLast++;
  }
  const point = ((1 - SBA_ALPHA / 2) * size) / interval;
  const sigma = Math.sqrt(squares / values.length);
  return {
    mean: Array.from({ length: horizon }, () => point),
    sd: Array.from({ length: horizon }, (_, h) => sigma * Math.sqrt(1 + h * SBA_ALPHA * SBA_ALPHA)),
  };
};

/**
 * An intermittent series whose trailing run of zeros is longer than any gap before it and than
 * twice its average gap: the seller has stopped selling, and Croston (which only learns from sales)
 * would go on forecasting its old rate.
 */
const hasStopped = (values: readonly number[]): boolean => {
  let longestGap = 0;
  let run = 0;
  let nonZero = 0;
  for (const value of values) {
    if (value === 0) run++;
    else {
      if (run > longestGap) longestGap = run;
      run = 0;
      nonZero++;
    }
  }
  return run > longestGap && run > (2 * values.length) / Math.max(1, nonZero);
};

/** Autocorrelation at lags 1..maxLag. */
const autocorrelations = (values: readonly number[], maxLag: number): number[] => {
  const n = values.length;
  let mean = 0;
  for (const value of values) mean += value;
  mean /= n;
  let denominator = 0;
  for (const value of values) denominator += (value - mean) ** 2;
  const result: number[] = [];
  for (let lag = 1; lag <= maxLag; lag++) {
    let sum = 0;
    for (let t = lag; t < n; t++) sum += ((values[t] ?? 0) - mean) * ((values[t - lag] ?? 0) - mean);
    result.push(denominator > 0 ? sum / denominator : 0);
  }
  return result;
};

/** The M4 test: |acf(m)| beyond its 90% limit (1.645 with Bartlett's variance). */
const isSeasonal = (values: readonly number[], seasonLength: number): boolean => {
  if (seasonLength < 2 || values.length < MIN_SEASONS_FOR_TEST * seasonLength) return false;
  const acf = autocorrelations(values, seasonLength);
  let sumSquares = 0;
  for (let lag = 0; lag < seasonLength - 1; lag++) sumSquares += (acf[lag] ?? 0) ** 2;
  const limit = (1.645 / Math.sqrt(values.length)) * Math.sqrt(1 + 2 * sumSquares);
  return Math.abs(acf[seasonLength - 1] ?? 0) > limit;
};

/**
 * Seasons this long (weekly data over a year) are smoothed over neighbouring positions: a few years
 * give each of 52 weekly indices only a few noisy ratios, a year is 52.18 weeks so positions drift,
 * and a seller's yearly pattern changes from month to month, not from week to week.
 */
const LONG_SEASON = 24;

/**
 * Seasonal indices come from the last 20 seasons at most: enough ratios per position, while decades-old
 * seasons may no longer describe the present (co2 weekly: OWA 0.40 with all 44 years, 0.27 with 20).
 */
const RECENT_SEASONS = 20;

const circularMovingAverage = (values: readonly number[], halfWidth: number): number[] =>
  values.map((_, i) => {
    let sum = 0;
    for (let k = -halfWidth; k <= halfWidth; k++) sum += values[(i + k + values.length) % values.length] ?? 0;
    return sum / (2 * halfWidth + 1);
  });

type Seasonality = { kind: 'multiplicative' | 'additive'; indices: number[] };

/** Classical decomposition: a centred moving average for the trend, seasonal indices by position. */
const seasonalIndices = (values: readonly number[], seasonLength: number): Seasonality => {
  const n = values.length;
  const m = seasonLength;
  const multiplicative = values.every((value) => value > 0);
  const half = Math.floor(m / 2);
  const sums = zeros(m);
  const counts = zeros(m);
  const prefix = [0];
  for (let t = 0; t < n; t++) prefix.push((prefix[t] ?? 0) + (values[t] ?? 0));
  const from = Math.max(half, n - half - RECENT_SEASONS * m);
  for (let t = from; t + half < n; t++) {
    // A centred moving average: order m when m is odd, 2 x m (half weights at both ends) when even.
    const trend =
      m % 2 === 1
        ? ((prefix[t + half + 1] ?? 0) - (prefix[t - half] ?? 0)) / m
        : ((prefix[t + half] ?? 0) -
            (prefix[t - half + 1] ?? 0) +
            0.5 * ((values[t - half] ?? 0) + (values[t + half] ?? 0))) /
          m;
    const value = values[t] ?? 0;
    const position = t % m;
    sums[position] = (sums[position] ?? 0) + (multiplicative ? value / trend : value - trend);
    counts[position] = (counts[position] ?? 0) + 1;
  }
  const positionMeans = sums.map((sum, i) => sum / Math.max(1, counts[i] ?? 0));
  const raw =
    m >= LONG_SEASON ? circularMovingAverage(positionMeans, Math.floor(m / LONG_SEASON)) : positionMeans;
  const average = raw.reduce((a, b) => a + b, 0) / m;
  return multiplicative
    ? { kind: 'multiplicative', indices: raw.map((index) => index / average) }
    : { kind: 'additive', indices: raw.map((index) => index - average) };
};

// ---- ETS (additive errors) fitted by Nelder-Mead on a series scaled to mean |y| = 1 ----

type TrendKind = 'none' | 'additive' | 'damped';
type EtsFit = {
  trend: TrendKind;
  alpha: number;
  beta: number;
  phi: number;
  level: number;
  slope: number;
  sse: number;
  aicc: number;
  parameters: number;
  /** The fitting criterion (1..FIT_STEPS-step AMSE) at the fitted parameters. */
  amse: number;
};

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const logit = (p: number) => Math.log(p / (1 - p));

const etsParameters = (trend: TrendKind, x: readonly number[]) => {
  const alpha = 1e-4 + 0.9998 * sigmoid(x[0] ?? 0);
  if (trend === 'none') return { alpha, beta: 0, phi: 1, level0: x[1] ?? 0, slope0: 0 };
  const beta = 1e-4 + (alpha - 1e-4) * sigmoid(x[1] ?? 0);
  const phi = trend === 'damped' ? 0.8 + 0.18 * sigmoid(x[4] ?? 0) : 1;
  return { alpha, beta, phi, level0: x[2] ?? 0, slope0: x[3] ?? 0 };
};

/** One pass of the state-space recursion; returns the SSE and leaves the final states in `out`. */
const etsPass = (
  y: readonly number[],
  p: { alpha: number; beta: number; phi: number; level0: number; slope0: number },
  out?: { level: number; slope: number },
): number => {
  let level = p.level0;
  let slope = p.slope0;
  let sse = 0;
  for (let t = 0; t < y.length; t++) {
    const damped = p.phi * slope;
    const error = (y[t] ?? 0) - (level + damped);
    sse += error * error;
    level = level + damped + p.alpha * error;
    slope = damped + p.beta * error;
  }
  if (out) {
    out.level = level;
    out.slope = slope;
  }
  return sse;
};

/**
 * Forecast steps whose errors the parameters are fitted to: the AMSE criterion of Hyndman's forecast
 * package (opt.crit "amse", its default nmse of 3), not only the one-step SSE. Forecasts are judged
 * 12 or 13 steps out; one-step fits of cyclic or mean-reverting series push alpha to 1 (naive), which
 * multi-step errors penalise (classic-yearly OWA 0.96 to 0.71, mean 0.733 to 0.684; ADR 0032).
 */
const FIT_STEPS = 3;

/**
 * The fitting objective: the mean over steps 1..FIT_STEPS of the mean squared j-step error, each
 * j-step forecast made from the states before y[t] is seen (the h-step forecast is level + (phi + ...
 * + phi^h) slope). The AICc and the bands still use the one-step SSE (etsPass) at these parameters.
 */
const amse = (
  y: readonly number[],
  p: { alpha: number; beta: number; phi: number; level0: number; slope0: number },
): number => {
  const n = y.length;
  const d1 = p.phi;
  const d2 = d1 + p.phi * p.phi;
  const d3 = d2 + p.phi * p.phi * p.phi;
  let level = p.level0;
  let slope = p.slope0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let t = 0; t < n; t++) {
    const error = (y[t] ?? 0) - (level + d1 * slope);
    s1 += error * error;
    if (t + 1 < n) s2 += ((y[t + 1] ?? 0) - (level + d2 * slope)) ** 2;
    if (t + 2 < n) s3 += ((y[t + 2] ?? 0) - (level + d3 * slope)) ** 2;
    const damped = p.phi * slope;
    level = level + damped + p.alpha * error;
    slope = damped + p.beta * error;
  }
  return (s1 / n + s2 / Math.max(1, n - 1) + s3 / Math.max(1, n - 2)) / FIT_STEPS;
};

/** Nelder-Mead minimisation, deterministic, with a fixed budget of evaluations. */
const nelderMead = (
  objective: (x: number[]) => number,
  search: { start: number[]; steps: number[]; budget: number },
) => {
  const { start, steps, budget } = search;
  const dim = start.length;
  const simplex: number[][] = [[...start]];
  for (let i = 0; i < dim; i++) {
    const vertex = [...start];
    vertex[i] = (vertex[i] ?? 0) + (steps[i] ?? 0.1);
    simplex.push(vertex);
  }
  const values = simplex.map(objective);
  let evaluations = dim + 1;
  const order = Array.from({ length: dim + 1 }, (_, i) => i);
  // Work vectors reused across iterations: this runs hundreds of times per series.
  const centroid = zeros(dim);
  const reflected = zeros(dim);
  const trial = zeros(dim);
  const byValue = (a: number, b: number) => (values[a] ?? 0) - (values[b] ?? 0);
  const along = (factor: number, into: number[], worstVertex: readonly number[]) => {
    for (let j = 0; j < dim; j++) {
      const c = centroid[j] ?? 0;
      into[j] = c + factor * ((worstVertex[j] ?? 0) - c);
    }
    return into;
  };
  const replaceWorst = (worst: number, vertex: readonly number[], value: number) => {
    const target = simplex[worst] ?? [];
    for (let j = 0; j < dim; j++) target[j] = vertex[j] ?? 0;
    values[worst] = value;
  };
  while (evaluations < budget) {
    order.sort(byValue);
    const best = order[0] ?? 0;
    const worst = order[dim] ?? 0;
    const secondWorst = order[dim - 1] ?? 0;
    const bestValue = values[best] ?? 0;
    const worstValue = values[worst] ?? 0;
    if (Math.abs(worstValue - bestValue) <= 1e-6 * (Math.abs(bestValue) + 1e-8)) break;
    centroid.fill(0);
    for (let k = 0; k < dim; k++) {
      const vertex = simplex[order[k] ?? 0] ?? [];
      for (let j = 0; j < dim; j++) centroid[j] = (centroid[j] ?? 0) + (vertex[j] ?? 0) / dim;
    }
    const worstVertex = simplex[worst] ?? [];
    along(-1, reflected, worstVertex);
    const reflectedValue = objective(reflected);
    evaluations++;
    if (reflectedValue < bestValue) {
      const expanded = along(-2, trial, worstVertex);
      const expandedValue = objective(expanded);
      evaluations++;
      if (expandedValue < reflectedValue) replaceWorst(worst, expanded, expandedValue);
      else replaceWorst(worst, reflected, reflectedValue);
    } else if (reflectedValue < (values[secondWorst] ?? 0)) {
      replaceWorst(worst, reflected, reflectedValue);
    } else {
      const contracted = along(reflectedValue < worstValue ? -0.5 : 0.5, trial, worstVertex);
      const contractedValue = objective(contracted);
      evaluations++;
      if (contractedValue < Math.min(reflectedValue, worstValue)) {
        replaceWorst(worst, contracted, contractedValue);
      } else {
        const bestVertex = simplex[best] ?? [];
        for (let k = 1; k <= dim; k++) {
          const index = order[k] ?? 0;
          const vertex = simplex[index] ?? [];
          for (let j = 0; j < dim; j++) {
            const b = bestVertex[j] ?? 0;
            vertex[j] = b + 0.5 * ((vertex[j] ?? 0) - b);
          }
          values[index] = objective(vertex);
          evaluations++;
        }
      }
    }
  }
  let bestIndex = 0;
  for (let i = 1; i <= dim; i++) if ((values[i] ?? 0) < (values[bestIndex] ?? 0)) bestIndex = i;
  return simplex[bestIndex] ?? start;
};

const fitEts = (y: readonly number[], trend: TrendKind): EtsFit | null => {
  const n = y.length;
  const parameters = trend === 'none' ? 2 : trend === 'additive' ? 4 : 5;
  // AICc needs n > parameters + 2 (the variance counts as one more); SES is kept for the shortest series.
  if (trend !== 'none' && n <= parameters + 2) return null;
  const head = Math.min(n, 10);
  let sumT = 0;
  let sumY = 0;
  let sumTT = 0;
  let sumTY = 0;
  for (let t = 0; t < head; t++) {
    const value = y[t] ?? 0;
    sumT += t;
    sumY += value;
    sumTT += t * t;
    sumTY += t * value;
  }
  const denominator = head * sumTT - sumT * sumT;
  const slope0 = trend === 'none' || denominator === 0 ? 0 : (head * sumTY - sumT * sumY) / denominator;
  const level0 = trend === 'none' ? (y[0] ?? 0) : (sumY - slope0 * sumT) / head - slope0;
  const start =
    trend === 'none'
      ? [logit(0.3), level0]
      : [logit(0.3), logit(0.1), level0, slope0, ...(trend === 'damped' ? [logit(0.75)] : [])];
  const steps = trend === 'none' ? [1, 0.2] : [1, 1, 0.2, 0.02, ...(trend === 'damped' ? [1] : [])];
  const objective = (x: number[]) => amse(y, etsParameters(trend, x));
  const best = nelderMead(objective, { start, steps, budget: 30 * start.length });
  const fitted = etsParameters(trend, best);
  const final = { level: 0, slope: 0 };
  const sse = Math.max(etsPass(y, fitted, final), 1e-12 * n);
  const k = parameters + 1;
  const aicc = n * Math.log(sse / n) + 2 * k + (n - k - 1 > 0 ? (2 * k * (k + 1)) / (n - k - 1) : Infinity);
  return {
    trend,
    ...fitted,
    level: final.level,
    slope: final.slope,
    sse,
    aicc,
    parameters,
    amse: amse(y, fitted),
  };
};

/** h-step forecasts and standard deviations of an additive-error ETS model (Hyndman et al., class 1). */
const etsForecast = (fit: EtsFit, n: number, horizon: number): ModelForecast => {
  const sigma2 = fit.sse / Math.max(1, n - fit.parameters);
  const mean: number[] = [];
  const sd: number[] = [];
  let dampedSum = 0;
  let variance = 0;
  for (let h = 1; h <= horizon; h++) {
    dampedSum += fit.phi ** h;
    mean.push(fit.level + dampedSum * fit.slope);
    // c_j for step j = h - 1: alpha + beta * (phi + ... + phi^j)
    if (h > 1) {
      const j = h - 1;
      const trendShare =
        fit.trend === 'none' ? 0 : fit.phi === 1 ? j : (fit.phi * (1 - fit.phi ** j)) / (1 - fit.phi);
      variance += (fit.alpha + fit.beta * trendShare) ** 2;
    }
    sd.push(Math.sqrt(sigma2 * (1 + variance)));
  }
  return { mean, sd };
};

/** Theta as SES with drift (Hyndman and Billah 2003): SES plus half the regression slope, damped in. */
const thetaForecast = (y: readonly number[], ses: EtsFit, horizon: number): ModelForecast => {
  const n = y.length;
  let sumT = 0;
  let sumY = 0;
  let sumTT = 0;
  let sumTY = 0;
  for (let t = 0; t < n; t++) {
    const value = y[t] ?? 0;
    sumT += t;
    sumY += value;
    sumTT += t * t;
    sumTY += t * value;
  }
  const denominator = n * sumTT - sumT * sumT;
  const drift = denominator === 0 ? 0 : (n * sumTY - sumT * sumY) / denominator / 2;
  const base = etsForecast(ses, n, horizon);
  const alpha = ses.alpha;
  const offset = (1 - (1 - alpha) ** n) / alpha;
  return { mean: base.mean.map((point, h) => point + drift * (h + offset)), sd: base.sd };
};

const average = (forecasts: readonly ModelForecast[], horizon: number): ModelForecast => ({
  mean: Array.from(
    { length: horizon },
    (_, h) => forecasts.reduce((sum, f) => sum + (f.mean[h] ?? 0), 0) / forecasts.length,
  ),
  sd: Array.from(
    { length: horizon },
    (_, h) => forecasts.reduce((sum, f) => sum + (f.sd[h] ?? 0), 0) / forecasts.length,
  ),
});

/**
 * The median of the members' point forecasts (their mean when there are two), with their standard
 * deviations averaged: on the backtests the median beat the mean on every data set (ADR 0032).
 */
const medianPoint = (forecasts: readonly ModelForecast[], horizon: number): ModelForecast => {
  const averaged = average(forecasts, horizon);
  if (forecasts.length !== 3) return averaged;
  return {
    mean: averaged.mean.map((_, h) => {
      const [a = 0, b = 0, c = 0] = forecasts.map((f) => f.mean[h] ?? 0);
      return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    }),
    sd: averaged.sd,
  };
};

// ---- A mean-reverting member: AR(1) or AR(2) around the mean, only for a stationary series ----

/**
 * One test each way, both at 1%: the Dickey-Fuller test (a constant, no trend) must reject a unit
 * root and the KPSS test must not reject level stationarity. Only then is the adjusted series taken
 * to return to its mean, and an AR model's forecast (which goes back to that mean) joins the median.
 * A trending series, a level shift or a random walk fails one test or the other (ADR 0032).
 */
const dickeyFullerRejects = (y: readonly number[]): boolean => {
  const n = y.length - 1;
  if (n < 8) return false;
  let sumX = 0;
  let sumY = 0;
  for (let t = 1; t <= n; t++) {
    sumX += y[t - 1] ?? 0;
    sumY += y[t] ?? 0;
  }
  const meanX = sumX / n;
  const meanY = sumY / n;
  let sxx = 0;
  let sxy = 0;
  for (let t = 1; t <= n; t++) {
    const x = (y[t - 1] ?? 0) - meanX;
    sxx += x * x;
    sxy += x * ((y[t] ?? 0) - meanY);
  }
  if (sxx <= 0) return false;
  const phi = sxy / sxx;
  const c = meanY - phi * meanX;
  let sse = 0;
  for (let t = 1; t <= n; t++) sse += ((y[t] ?? 0) - c - phi * (y[t - 1] ?? 0)) ** 2;
  const t = (phi - 1) / Math.sqrt(sse / (n - 2) / sxx);
  // MacKinnon (2010) 1% critical value for a constant and n observations.
  const critical = -3.43035 - 6.5393 / n - 16.786 / n ** 2 - 79.433 / n ** 3;
  return t < critical;
};

/** KPSS level-stationarity statistic below its 1% critical value, 0.739 (Bartlett lags 3 sqrt(n) / 13). */
const kpssAccepts = (y: readonly number[]): boolean => {
  const n = y.length;
  let mean = 0;
  for (const value of y) mean += value;
  mean /= n;
  let partial = 0;
  let numerator = 0;
  let variance = 0;
  for (const value of y) {
    partial += value - mean;
    numerator += partial * partial;
    variance += (value - mean) ** 2;
  }
  const lags = Math.floor((3 * Math.sqrt(n)) / 13);
  for (let lag = 1; lag <= lags; lag++) {
    let sum = 0;
    for (let t = lag; t < n; t++) sum += ((y[t] ?? 0) - mean) * ((y[t - lag] ?? 0) - mean);
    variance += 2 * (1 - lag / (lags + 1)) * sum;
  }
  if (variance <= 0) return false;
  return numerator / (n * variance) < 0.739;
};

/** y_t = c + a1 y_{t-1} + a2 y_{t-2} (a2 = 0 for AR(1)), least squares. */
type ArFit = { order: 1 | 2; c: number; a1: number; a2: number };

/** Solves the normal equations of a least-squares fit by Gaussian elimination; null when singular. */
const solve = (matrix: number[][], rhs: number[]): number[] | null => {
  const size = rhs.length;
  const a = matrix.map((row, i) => [...row, rhs[i] ?? 0]);
  for (let col = 0; col < size; col++) {
    let pivot = col;
    for (let row = col + 1; row < size; row++)
      if (Math.abs(a[row]?.[col] ?? 0) > Math.abs(a[pivot]?.[col] ?? 0)) pivot = row;
    const pivotRow = a[pivot] ?? [];
    if (Math.abs(pivotRow[col] ?? 0) < 1e-12) return null;
    a[pivot] = a[col] ?? [];
    a[col] = pivotRow;
    for (let row = 0; row < size; row++) {
      if (row === col) continue;
      const target = a[row] ?? [];
      const factor = (target[col] ?? 0) / (pivotRow[col] ?? 1);
      for (let k = col; k <= size; k++) target[k] = (target[k] ?? 0) - factor * (pivotRow[k] ?? 0);
    }
  }
  return a.map((row, i) => (row[size] ?? 0) / (row[i] ?? 1));
};

/**
 * AR(1) and AR(2) with a constant fitted on the same points (t >= 2); AR(2), which can follow a cycle
 * (sunspots, lynx), is taken when its AIC is lower and it is stationary. Null if neither is stationary.
 */
const fitAr = (y: readonly number[]): ArFit | null => {
  const n = y.length;
  const points = n - 2;
  const fit = (order: 1 | 2) => {
    const size = order + 1;
    const xtx = Array.from({ length: size }, () => zeros(size));
    const xty = zeros(size);
    for (let t = 2; t < n; t++) {
      const x = order === 1 ? [1, y[t - 1] ?? 0] : [1, y[t - 1] ?? 0, y[t - 2] ?? 0];
      for (let i = 0; i < size; i++) {
        xty[i] = (xty[i] ?? 0) + (x[i] ?? 0) * (y[t] ?? 0);
        const row = xtx[i] ?? [];
        for (let j = 0; j < size; j++) row[j] = (row[j] ?? 0) + (x[i] ?? 0) * (x[j] ?? 0);
      }
    }
    const solution = solve(xtx, xty);
    if (!solution) return null;
    const [c = 0, a1 = 0, a2 = 0] = solution;
    const stationary = order === 1 ? Math.abs(a1) < 1 : a1 + a2 < 1 && a2 - a1 < 1 && Math.abs(a2) < 1;
    if (!stationary) return null;
    let sse = 0;
    for (let t = 2; t < n; t++) sse += ((y[t] ?? 0) - c - a1 * (y[t - 1] ?? 0) - a2 * (y[t - 2] ?? 0)) ** 2;
    const aic = points * Math.log(Math.max(sse, 1e-12) / points) + 2 * (size + 1);
    return { fit: { order, c, a1, a2 }, aic };
  };
  const first = points > 4 ? fit(1) : null;
  const second = points > 6 ? fit(2) : null;
  if (first && second) return second.aic < first.aic ? second.fit : first.fit;
  return (first ?? second)?.fit ?? null;
};

/** The AR model's forecasts of the `steps` points after y[origin] (y[origin] and before known). */
const arPath = (fit: ArFit, y: readonly number[], from: { origin: number; steps: number }): number[] => {
  const { origin, steps } = from;
  let last = y[origin] ?? 0;
  let before = y[origin - 1] ?? last;
  const path: number[] = [];
  for (let step = 0; step < steps; step++) {
    const next = fit.c + fit.a1 * last + fit.a2 * before;
    path.push(next);
    before = last;
    last = next;
  }
  return path;
};

/** The AR model's 1..FIT_STEPS-step AMSE over the series, as the ETS fits are judged. */
const arAmse = (fit: ArFit, y: readonly number[]): number => {
  const n = y.length;
  const sums = zeros(FIT_STEPS);
  const counts = zeros(FIT_STEPS);
  for (let origin = fit.order - 1; origin < n - 1; origin++) {
    const path = arPath(fit, y, { origin, steps: Math.min(FIT_STEPS, n - 1 - origin) });
    path.forEach((point, j) => {
      sums[j] = (sums[j] ?? 0) + ((y[origin + 1 + j] ?? 0) - point) ** 2;
      counts[j] = (counts[j] ?? 0) + 1;
    });
  }
  let total = 0;
  for (let j = 0; j < FIT_STEPS; j++) total += (sums[j] ?? 0) / Math.max(1, counts[j] ?? 0);
  return total / FIT_STEPS;
};

/** The mean-reverting member of a stationary series, with its in-sample AMSE; null otherwise. */
const meanReverting = (y: readonly number[], horizon: number) => {
  if (!dickeyFullerRejects(y) || !kpssAccepts(y)) return null;
  const fit = fitAr(y);
  if (!fit) return null;
  return {
    order: fit.order,
    mean: arPath(fit, y, { origin: y.length - 1, steps: horizon }),
    amse: arAmse(fit, y),
  };
};

const trendLabel: Record<TrendKind, string> = { none: 'ANN', additive: 'AAN', damped: 'AAdN' };

/** ETS by AICc, Theta and damped trend on a non-intermittent series of at least MIN_MODEL_POINTS. */
const combination = (values: readonly number[], horizon: number, seasonLength: number) => {
  const n = values.length;
  const seasonality = isSeasonal(values, seasonLength) ? seasonalIndices(values, seasonLength) : null;
  const indexAt = (t: number) =>
    seasonality?.indices[t % seasonLength] ?? (seasonality?.kind === 'additive' ? 0 : 1);
  const adjusted = seasonality
    ? values.map((value, t) =>
        seasonality.kind === 'multiplicative' ? value / indexAt(t) : value - indexAt(t),
      )
    : values;
  let scale = 0;
  for (const value of adjusted) scale += Math.abs(value);
  scale = scale / n || 1;
  const y = adjusted.map((value) => value / scale);

  const ses = fitEts(y, 'none');
  if (!ses) return null;
  const holt = fitEts(y, 'additive');
  const damped = fitEts(y, 'damped');
  const candidates = [ses, holt, damped].filter((fit): fit is EtsFit => fit !== null);
  const chosen = candidates.reduce((best, fit) => (fit.aicc < best.aicc ? fit : best));
  const members = [etsForecast(chosen, n, horizon), thetaForecast(y, ses, horizon)];
  if (damped) members.push(etsForecast(damped, n, horizon));
  const median = medianPoint(members, horizon);
  // A stationary series: the AR forecast blended with the median, weights the inverse of their
  // in-sample AMSE (the median's taken as its best member's, which favours the median).
  const reverting = meanReverting(y, horizon);
  const combined = reverting
    ? (() => {
        const medianWeight = 1 / Math.max(1e-12, Math.min(...candidates.map((fit) => fit.amse)));
        const arWeight = 1 / Math.max(1e-12, reverting.amse);
        return {
          mean: median.mean.map(
            (point, h) =>
              (medianWeight * point + arWeight * (reverting.mean[h] ?? point)) / (medianWeight + arWeight),
          ),
          sd: median.sd,
        };
      })()
    : median;

  const unscale = (value: number, h: number, isSd: boolean) => {
    const raw = value * scale;
    if (!seasonality) return raw;
    const index = indexAt(n + h);
    return seasonality.kind === 'multiplicative' ? raw * index : isSd ? raw : raw + index;
  };
  const forecast: ModelForecast = {
    mean: combined.mean.map((value, h) => unscale(value, h, false)),
    sd: combined.sd.map((value, h) => unscale(value, h, true)),
  };
  const label = `median(ets=${trendLabel[chosen.trend]},theta${damped ? ',damped' : ''})${
    reverting ? `+ar${reverting.order}` : ''
  }${seasonality ? `+${seasonality.kind}-seasonal` : ''}`;
  return { label, forecast };
};

export const forecastRevenue = (history: readonly number[], options: ForecastOptions): SeriesForecast => {
  const horizon = Math.max(0, Math.floor(options.horizon));
  const seasonLength = Math.max(1, Math.floor(options.seasonLength));
  const finite = history.map((value) => (Number.isFinite(value) ? value : 0));
  // Weeks before a seller's first sale say nothing about its revenue.
  const first = finite.findIndex((value) => value !== 0);
  if (first < 0) return withBands('zero', { mean: zeros(horizon), sd: zeros(horizon) });
  const values = finite.slice(first);
  const n = values.length;
  if (n < MIN_MODEL_POINTS) return withBands('naive', naive(values, horizon));
  let min = Infinity;
  let max = -Infinity;
  let nonZero = 0;
  for (const value of values) {
    if (value < min) min = value;
    if (value > max) max = value;
    if (value !== 0) nonZero++;
  }
  if (max - min <= 1e-12 * Math.max(Math.abs(max), Math.abs(min)))
    return withBands('constant', {
      mean: values.slice(-1).flatMap((v) => zeros(horizon).map(() => v)),
      sd: zeros(horizon),
    });
  if (n / nonZero > INTERMITTENT_ADI) {
    if (hasStopped(values)) return withBands('stopped', { mean: zeros(horizon), sd: zeros(horizon) });
    return withBands('croston-sba', crostonSba(values, horizon));
  }
  const combined = combination(values, horizon, seasonLength);
  return combined ? withBands(combined.label, combined.forecast) : withBands('naive', naive(values, horizon));
};
