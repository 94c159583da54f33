import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../contracts/config';
import type { HealthReport } from '../../contracts/health';
import { isolatedNames, testConfig } from './isolation';
import { dropScratch, freePort, productEnv, stopChild } from './ledgerwise-process';

/**
 * The product as several machines would run it (docs/DEPLOY.md): separate `ledgerwise <role>` processes
 * sharing one event store (the embedded SQLite file of one data folder), one read-model database and
 * one set of queue and topic prefixes, each on its own ports.
 */
export type RoleProcess = {
  role: string;
  /** The gateway's base URL, or the health server's for the other roles. */
  base: string;
  health: () => Promise<HealthReport | null>;
  kill: (signal?: NodeJS.Signals) => Promise<void>;
  output: () => string;
};

export type LedgerwiseCluster = {
  config: Config;
  dataDir: string;
  processes: RoleProcess[];
  stop: () => Promise<void>;
};

const healthPath = (role: string) => (role === 'gateway' ? '/api/health' : '/health');

const startRole = async (role: string, env: NodeJS.ProcessEnv): Promise<RoleProcess> => {
  const port = await freePort();
  const portVariable = {
    gateway: 'GATEWAY_PORT',
    projector: 'PROJECTOR_HEALTH_PORT',
    worker: 'WORKER_HEALTH_PORT',
    analytics: 'ANALYTICS_HEALTH_PORT',
  }[role];
  if (!portVariable) throw new Error(`unknown role ${role}`);
  const base = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'cli/ledgerwise.ts', role], {
    cwd: join(__dirname, '..', '..'),
    detached: true, // its own process group, so a kill reaches everything it started
    env: { ...env, [portVariable]: String(port), ...(role === 'gateway' ? { PUBLIC_URL: base } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const health = async () => {
    try {
      const response = await fetch(`${base}${healthPath(role)}`);
      return (await response.json()) as HealthReport;
    } catch {
      return null;
    }
  };
  for (let i = 0; i < 240; i += 1) {
    if (child.exitCode !== null) throw new Error(`ledgerwise ${role} exited:\n${output}`);
    if (await health()) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (!(await health())) {
    await stopChild(child);
    throw new Error(`ledgerwise ${role} did not answer its health check within 120 s:\n${output}`);
  }
  const kill = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (signal === 'SIGTERM') return stopChild(child);
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, signal);
    await exited;
  };
  return { role, base, health, kill, output: () => output };
};

/** Starts the roles in order (each answers its health check before the next starts). */
export const startCluster = async (testFile: string, roles: string[]): Promise<LedgerwiseCluster> => {
  const names = isolatedNames(testFile);
  const config = testConfig(names);
  const dataDir = mkdtempSync(join(tmpdir(), `lw-${names.runId}-`));
  const env = productEnv(config, dataDir);
  const processes: RoleProcess[] = [];
  const stop = async () => {
    await Promise.all(processes.map((p) => p.kill()));
    await dropScratch(config, dataDir);
  };
  try {
    for (const role of roles) processes.push(await startRole(role, env));
  } catch (error) {
    await stop();
    throw error;
  }
  return { config: { ...config, DATA_DIR: dataDir }, dataDir, processes, stop };
};
