import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDir } from './paths';

/** One unexpected exit of a supervised local server, as the supervisor recorded it. */
export type Crash = {
  at: string;
  code: number | null;
  signal: string | null;
  ranMs: number;
  restarting: boolean;
  pauseMs: number;
};

export const crashLogFile = (server: string): string => join(runDir(), `${server}.crashes.jsonl`);

/** The crashes recorded since the server was last started by `infra up`. */
export const crashesOf = (server: string): Crash[] => {
  const file = crashLogFile(server);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Crash);
};

/** What `infra status` says of a server's crashes: nothing when there were none. */
export const crashSummary = (server: string): string => {
  const crashes = crashesOf(server);
  const last = crashes.at(-1);
  if (!last) return '';
  const how = last.signal ? `signal ${last.signal}` : `code ${last.code}`;
  const after = last.restarting ? 'restarted' : 'gave up';
  return `crashed ${crashes.length}x, last ${last.at} (${how}, ${after})`;
};
