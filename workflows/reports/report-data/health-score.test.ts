import { healthScore, pointsOf, healthRules } from './health-score';

describe('the health score', () => {
  it('gives a driver its full points at the good bound or better, none at the poor bound or worse', () => {
    const dso = healthRules.dso;
    expect(pointsOf(dso, 12)).toBe(30);
    expect(pointsOf(dso, 30)).toBe(30);
    expect(pointsOf(dso, 90)).toBe(0);
    expect(pointsOf(dso, 140)).toBe(0);
  });

  it('scores in proportion between the bounds, rounded to whole points', () => {
    // DSO 60 is halfway from 30 to 90: 15 of 30 points; 45 days: 22.5, rounded to 23.
    expect(pointsOf(healthRules.dso, 60)).toBe(15);
    expect(pointsOf(healthRules.dso, 45)).toBe(23);
    // Overdue share 27.5% is halfway from 5% to 50%.
    expect(pointsOf(healthRules.overdueShare, 0.275)).toBe(15);
  });

  it('gives a driver without data half its points', () => {
    expect(pointsOf(healthRules.concentration, null)).toBe(10);
    expect(pointsOf(healthRules.dso, null)).toBe(15);
  });

  it('adds the four drivers into a score out of 100', () => {
    const best = healthScore({ dso: 20, overdueShare: 0, concentration: 0.1, dsoChange: -3 });
    expect(best.score).toBe(100);
    expect(best.drivers.map((d) => d.maxPoints)).toEqual([30, 30, 20, 20]);
    const mixed = healthScore({ dso: 60, overdueShare: 0.5, concentration: null, dsoChange: 7.5 });
    expect(mixed.drivers.map((d) => d.points)).toEqual([15, 0, 10, 10]);
    expect(mixed.score).toBe(35);
  });
});
