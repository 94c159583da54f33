import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { superviseServer } from './supervisor';

/** A stand-in server: a Node one-liner that exits with `code` on its first `crashes` starts, then stays up. */
const flakyServer = (dir: string, crashes: number, code = 3) => ({
  name: 'flaky',
  prepareData: () => Promise.resolve(),
  command: () => ({
    command: process.execPath,
    args: [
      '-e',
      `const fs = require('fs'); const f = ${JSON.stringify(join(dir, 'starts'))};
       const n = fs.existsSync(f) ? Number(fs.readFileSync(f, 'utf8')) + 1 : 1; fs.writeFileSync(f, String(n));
       if (n <= ${crashes}) process.exit(${code}); setInterval(() => {}, 1000);`,
    ],
  }),
});

const startsOf = (dir: string) => Number(readFileSync(join(dir, 'starts'), 'utf8'));
const crashesOf = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { code: number; restarting: boolean })
    : [];

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe('the local server supervisor', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lw-supervisor-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('restarts a server that crashed, records the crash, and stops it on request', async () => {
    const crashLog = join(dir, 'crashes.jsonl');
    const ended: number[] = [];
    const supervision = superviseServer(flakyServer(dir, 2), {
      restartPausesMs: [10, 10, 10],
      healthyRunMs: 60_000,
      crashLog,
      note: () => undefined,
      onEnd: (code) => ended.push(code),
    });
    await until(() => existsSync(join(dir, 'starts')) && startsOf(dir) === 3);
    expect(crashesOf(crashLog)).toEqual([
      expect.objectContaining({ code: 3, restarting: true }),
      expect.objectContaining({ code: 3, restarting: true }),
    ]);
    supervision.stop();
    await until(() => ended.length > 0);
    expect(ended).toEqual([0]);
    expect(crashesOf(crashLog)).toHaveLength(2); // the requested stop is not a crash
  });

  it('gives up on a server that crashes more often in a row than it has pauses', async () => {
    const crashLog = join(dir, 'crashes.jsonl');
    const ended: number[] = [];
    superviseServer(flakyServer(dir, 100), {
      restartPausesMs: [10, 10],
      healthyRunMs: 60_000,
      crashLog,
      note: () => undefined,
      onEnd: (code) => ended.push(code),
    });
    await until(() => ended.length > 0);
    expect(ended).toEqual([1]);
    expect(startsOf(dir)).toBe(3);
    expect(crashesOf(crashLog).map((c) => c.restarting)).toEqual([true, true, false]);
  });
});
