import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { embeddedReadStorePath, loadConfig } from '../../contracts/config';
import { cacheRoot, logDir, runDir } from './paths';
import { servers, serverNamed, type ServerDefinition } from './servers';
import { InfraError, withLock } from './shell';
import { crashLogFile, crashSummary } from './crash-log';

const supervisorScript = join(__dirname, 'supervise.ts');

/**
 * `ledgerwise infra up|down|status|logs [server]`: provisions, starts, checks and stops the local servers.
 * Idempotent: a server that already answers (started by this clone, another clone, or by hand) is reused.
 */
const pidFile = (server: ServerDefinition) => join(runDir(), `${server.name}.pid`);
const logFile = (server: ServerDefinition) => join(logDir(), `${server.name}.log`);

const readPid = (server: ServerDefinition): number | undefined => {
  if (!existsSync(pidFile(server))) return undefined;
  const pid = Number(readFileSync(pidFile(server), 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
};

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const waitUntilReady = async (server: ServerDefinition, pid: number | undefined): Promise<void> => {
  const deadline = Date.now() + server.startTimeoutMs;
  while (Date.now() < deadline) {
    if (await server.isReady()) return;
    if (pid !== undefined && !isAlive(pid)) {
      throw new InfraError(
        `${server.name} exited during start-up. Its log (${logFile(server)}) ends with:\n${tailOf(logFile(server), 20)}`,
      );
    }
    await sleep(500);
  }
  throw new InfraError(
    `${server.name} did not become ready within ${server.startTimeoutMs / 1000}s. See ${logFile(server)}.`,
  );
};

const tailOf = (file: string, lines: number): string =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .slice(-lines - 1)
        .join('\n')
    : '(no log)';

const ensureProvisioned = async (server: ServerDefinition): Promise<void> => {
  if (server.isProvisioned()) return;
  mkdirSync(cacheRoot(), { recursive: true });
  await withLock(join(cacheRoot(), `${server.name}-${server.version}.lock`), async () => {
    if (server.isProvisioned()) return; // another process built it while we waited
    const started = Date.now();
    await server.provision();
    if (!server.isProvisioned())
      throw new InfraError(`${server.name}: provisioning finished but the server is still missing`);
    process.stdout.write(
      `  ${server.name} ${server.version} ready in the cache after ${Math.round((Date.now() - started) / 1000)}s\n`,
    );
  });
};

const startServer = async (server: ServerDefinition): Promise<'reused' | 'started'> => {
  if (await server.isReady()) return 'reused';
  const existing = readPid(server);
  if (existing !== undefined && isAlive(existing)) {
    // Started earlier and still coming up: wait for it rather than start a second copy.
    await waitUntilReady(server, existing);
    return 'reused';
  }
  await ensureProvisioned(server);
  mkdirSync(runDir(), { recursive: true });
  mkdirSync(logDir(), { recursive: true });
  const log = openSync(logFile(server), 'a');
  rmSync(crashLogFile(server.name), { force: true });
  // The server runs under a supervisor that restarts it when it crashes (supervise.ts).
  const child = spawn(process.execPath, [require.resolve('tsx/cli'), supervisorScript, server.name], {
    detached: true, // its own process group: it outlives `infra up` and stops as a group
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  if (child.pid === undefined) throw new InfraError(`${server.name}: could not start its supervisor`);
  writeFileSync(pidFile(server), String(child.pid));
  child.unref();
  await waitUntilReady(server, child.pid);
  return 'started';
};

const stopServer = async (server: ServerDefinition): Promise<string> => {
  const pid = readPid(server);
  if (pid === undefined || !isAlive(pid)) {
    rmSync(pidFile(server), { force: true });
    return (await server.isReady()) ? 'not ours (left running)' : 'not running';
  }
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      /* already gone */
    }
  };
  signalGroup('SIGTERM');
  const deadline = Date.now() + 20_000;
  while (isAlive(pid) && Date.now() < deadline) await sleep(200);
  if (isAlive(pid)) signalGroup('SIGKILL');
  rmSync(pidFile(server), { force: true });
  return 'stopped';
};

const selected = (names: string[]): readonly ServerDefinition[] =>
  names.length === 0 ? servers : names.map(serverNamed);

export const infraUp = async (names: string[] = []): Promise<void> => {
  const chosen = selected(names);
  // Provision one at a time (builds compete for 2 cores), then start them all at once.
  for (const server of chosen) await ensureProvisioned(server);
  const results = await Promise.allSettled(chosen.map((s) => startServer(s)));
  const failures: string[] = [];
  results.forEach((result, index) => {
    const server = chosen[index]!;
    if (result.status === 'fulfilled') {
      process.stdout.write(
        `  ${server.name.padEnd(12)} ${result.value.padEnd(8)} ${server.endpoints.join(', ')}\n`,
      );
    } else {
      failures.push(
        `${server.name}: ${result.reason instanceof Error ? result.reason.message : String(result.reason)}`,
      );
    }
  });
  if (failures.length > 0) throw new InfraError(failures.join('\n'));
};

/** The stores that are files, not servers (the defaults when no EventStoreDB or MongoDB is configured). */
const embeddedStoresLine = (): string => {
  try {
    const config = loadConfig(process.env);
    const sizeOf = (path: string) =>
      existsSync(path) ? `${(statSync(path).size / 2 ** 20).toFixed(1)} MiB` : 'not created yet';
    const readStore = config.MONGO_URL
      ? 'read models in MongoDB (MONGO_URL)'
      : `read store   embedded ${embeddedReadStorePath(config)} (${sizeOf(embeddedReadStorePath(config))})`;
    const eventStore = config.EVENTSTORE_URL
      ? 'events in EventStoreDB (EVENTSTORE_URL)'
      : `event store  embedded under ${config.DATA_DIR}`;
    return `  ${readStore}
  ${eventStore}
`;
  } catch {
    return '';
  }
};

export const runInfraCommand = async (args: string[]): Promise<number> => {
  const [action = 'status', ...names] = args;
  try {
    switch (action) {
      case 'up':
        process.stdout.write('Starting the local servers...\n');
        await infraUp(names);
        return 0;
      case 'down':
        for (const server of [...selected(names)].reverse()) {
          process.stdout.write(`  ${server.name.padEnd(12)} ${await stopServer(server)}\n`);
        }
        return 0;
      case 'status': {
        let allHealthy = true;
        for (const server of selected(names)) {
          const pid = readPid(server);
          const ready = await server.isReady();
          allHealthy &&= ready;
          const state = ready
            ? 'healthy'
            : pid !== undefined && isAlive(pid)
              ? 'starting or unhealthy'
              : 'stopped';
          const cached = server.isProvisioned() ? 'cached' : 'not built';
          const crashes = crashSummary(server.name);
          process.stdout.write(
            `  ${server.name.padEnd(12)} ${server.version.padEnd(8)} ${state.padEnd(22)} ${cached.padEnd(10)} ${server.endpoints.join(', ')}${crashes ? `  ${crashes}` : ''}\n`,
          );
        }
        process.stdout.write(embeddedStoresLine());
        return allHealthy ? 0 : 1;
      }
      case 'logs':
        for (const server of selected(names)) {
          process.stdout.write(`==> ${logFile(server)} <==\n${tailOf(logFile(server), 50)}\n`);
        }
        return 0;
      default:
        process.stderr.write(`Unknown infra action ${action}. Use up, down, status or logs.\n`);
        return 2;
    }
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
};
