/**
 * The scorecard's health score, 0 to 100, as the sum of four drivers' points (ADR 36). Each driver
 * scores its full points at or better than its "good" value, none at or worse than its "poor"
 * value, and in proportion between; a driver without data scores half its points, so a company
 * is neither rewarded nor punished for what we cannot see.
 */
export type HealthDriverId = 'dso' | 'overdueShare' | 'concentration' | 'trend';

export type HealthDriver = {
  id: HealthDriverId;
  label: string;
  /** The driver's figure (days or a share between 0 and 1), null without data. */
  value: number | null;
  unit: 'days' | 'share';
  points: number;
  maxPoints: number;
  /** What earns full points and what earns none, for the legend. */
  good: number;
  poor: number;
};

export type HealthInputs = {
  /** DSO over the trailing 3 months, days. */
  dso: number | null;
  /** Overdue receivables / open receivables. */
  overdueShare: number | null;
  /** The 5 largest customer balances' share of the open receivables. */
  concentration: number | null;
  /** DSO now less DSO three months earlier, days: positive is worse. */
  dsoChange: number | null;
};

type Rule = {
  id: HealthDriverId;
  label: string;
  unit: 'days' | 'share';
  maxPoints: number;
  good: number;
  poor: number;
};

export const healthRules: Record<HealthDriverId, Rule> = {
  dso: { id: 'dso', label: 'Days sales outstanding', unit: 'days', maxPoints: 30, good: 30, poor: 90 },
  overdueShare: {
    id: 'overdueShare',
    label: 'Overdue share of receivables',
    unit: 'share',
    maxPoints: 30,
    good: 0.05,
    poor: 0.5,
  },
  concentration: {
    id: 'concentration',
    label: 'Top 5 customers share of receivables',
    unit: 'share',
    maxPoints: 20,
    good: 0.25,
    poor: 0.75,
  },
  trend: { id: 'trend', label: 'DSO trend over 3 months', unit: 'days', maxPoints: 20, good: 0, poor: 15 },
};

/** Whole points: full at `good` or better, none at `poor` or worse, linear between (lower is better). */
export const pointsOf = (rule: Rule, value: number | null): number => {
  if (value === null) return Math.round(rule.maxPoints / 2);
  if (value <= rule.good) return rule.maxPoints;
  if (value >= rule.poor) return 0;
  return Math.round((rule.maxPoints * (rule.poor - value)) / (rule.poor - rule.good));
};

export const healthScore = (inputs: HealthInputs): { score: number; drivers: HealthDriver[] } => {
  const values: Record<HealthDriverId, number | null> = {
    dso: inputs.dso,
    overdueShare: inputs.overdueShare,
    concentration: inputs.concentration,
    trend: inputs.dsoChange,
  };
  const drivers = Object.values(healthRules).map((rule) => ({
    ...rule,
    value: values[rule.id],
    points: pointsOf(rule, values[rule.id]),
  }));
  return { score: drivers.reduce((sum, d) => sum + d.points, 0), drivers };
};
