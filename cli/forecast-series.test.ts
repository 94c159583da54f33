import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSeriesCsv } from '../workflows/forecast/series-csv';

const cli = join(__dirname, 'ledgerwise.ts');
const run = (args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', cli, 'forecast', ...args], { encoding: 'utf8' });

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledgerwise-forecast-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

describe('ledgerwise forecast', () => {
  it('writes one row of point forecasts per series, ragged rows and a header allowed', () => {
    const trend = Array.from({ length: 30 }, (_, t) => 100 + 10 * t).join(',');
    const input = write('series.csv', `seller,week1,week2\nshop-a,${trend}\n"shop, b",7,7,7,7,7,7\n`);
    const output = join(dir, 'forecasts.csv');
    const result = run(['--input', input, '--horizon', '4', '--frequency', 'weekly', '--output', output]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const lines = readFileSync(output, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('id,h1,h2,h3,h4');
    const [shopA, shopB] = parseSeriesCsv(readFileSync(output, 'utf8'));
    expect(shopA?.id).toBe('shop-a');
    expect(shopA?.values).toHaveLength(4);
    // The trend goes on: 400 is the next value of 100 + 10 t.
    expect(Math.abs((shopA?.values[0] ?? 0) - 400)).toBeLessThan(10);
    expect(shopB).toEqual({ id: 'shop, b', values: [7, 7, 7, 7] });
  });

  it('adds nested 80/95 bands with --intervals', () => {
    const values = Array.from({ length: 40 }, (_, t) => 500 + ((t * 37) % 23) * 10).join(',');
    const input = write('noisy.csv', `s1,${values}\n`);
    const result = run(['--input', input, '--horizon=2', '--frequency=monthly', '--intervals']);
    expect(result.status).toBe(0);
    const [header, row] = result.stdout.trim().split('\n');
    expect(header).toBe(
      'id,h1,h2,lower80_h1,lower80_h2,upper80_h1,upper80_h2,lower95_h1,lower95_h2,upper95_h1,upper95_h2',
    );
    const [, mean1, , lower80, , upper80, , lower95, , upper95] = (row ?? '').split(',').map(Number);
    expect(lower95).toBeLessThan(lower80 ?? NaN);
    expect(lower80).toBeLessThan(mean1 ?? NaN);
    expect(mean1).toBeLessThan(upper80 ?? NaN);
    expect(upper80).toBeLessThan(upper95 ?? NaN);
  });

  it('names the line and column of a value that is not a number', () => {
    const input = write('bad.csv', 'a,1,2,3\nb,4,five,6\n');
    const result = run(['--input', input]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('line 2, column 3: "five" is not a number (series "b")');
  });

  it('rejects a repeated id and an unknown frequency', () => {
    const input = write('twice.csv', 'a,1,2\na,3,4\n');
    expect(run(['--input', input]).stderr).toContain('line 2: series id "a" appears twice');
    const daily = run(['--input', input, '--frequency', 'daily']);
    expect(daily.status).toBe(2);
    expect(daily.stderr).toContain('--frequency must be weekly or monthly');
  });

  it('is listed in the command-line usage', () => {
    const usage = execFileSync(process.execPath, ['--import', 'tsx', cli, '--help'], { encoding: 'utf8' });
    expect(usage).toContain('forecast --input series.csv');
  });
});
