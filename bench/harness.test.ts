import { formatTable, meetsTarget, parseParams, percentile, ratioOf, type Figure } from './harness';

const figure = (value: number, baseline: number, target?: Figure['target']): Figure => ({
  name: 'appends',
  unit: 'events/s',
  value,
  baseline: { name: 'raw insert', value: baseline },
  higherIsBetter: true,
  target,
});

describe('bench harness', () => {
  it('expresses a figure as a ratio of the baseline measured in the same run', () => {
    expect(ratioOf(figure(700, 1000))).toBeCloseTo(0.7);
    expect(ratioOf(figure(1, 0))).toBeNaN();
  });

  it('judges ratio and absolute targets', () => {
    expect(meetsTarget(figure(700, 1000, { kind: 'ratio', op: '>=', value: 0.7, source: 'issue 3' }))).toBe(
      true,
    );
    expect(meetsTarget(figure(600, 1000, { kind: 'ratio', op: '>=', value: 0.7, source: 'issue 3' }))).toBe(
      false,
    );
    expect(meetsTarget(figure(42, 10, { kind: 'absolute', op: '<=', value: 50, source: 'issue 3' }))).toBe(
      true,
    );
    expect(meetsTarget(figure(42, 10))).toBeNull();
  });

  it('overrides default parameters and refuses unknown or non-numeric ones', () => {
    expect(parseParams({ size: 10, batches: 2 }, ['--size=500'])).toEqual({ size: 500, batches: 2 });
    expect(() => parseParams({ size: 10 }, ['--sise=5'])).toThrow(/Unknown parameter sise/);
    expect(() => parseParams({ size: 10 }, ['--size=lots'])).toThrow(/must be a number/);
    expect(() => parseParams({ size: 10 }, ['size=5'])).toThrow(/Unrecognised argument/);
  });

  it('takes nearest-rank percentiles of an unsorted sample', () => {
    const sample = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(sample, 50)).toBe(5);
    expect(percentile(sample, 99)).toBe(10);
    expect(percentile([], 50)).toBeNaN();
  });

  it('prints each figure beside its baseline, ratio and target verdict', () => {
    const table = formatTable({
      suite: 'events',
      description: '',
      params: {},
      startedAt: '',
      durationSeconds: 1,
      machine: { cpus: 2, memoryGiB: 24, node: 'v20', platform: 'linux-x64' },
      figures: [
        {
          ...figure(600, 1000, { kind: 'ratio', op: '>=', value: 0.7, source: 'issue 3' }),
          ratio: 0.6,
          meetsTarget: false,
        },
      ],
    });
    expect(table).toContain('raw insert: 1000 events/s');
    expect(table).toContain('0.600x');
    expect(table).toContain('MISSED');
  });
});
