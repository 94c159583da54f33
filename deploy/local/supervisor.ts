import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import type { Crash } from './crash-log';
import type { ServerDefinition } from './servers';

export type SupervisorOptions = {
  /** Pauses before the first, second... restart of a run of quick crashes. */
  restartPausesMs: readonly number[];
  /** A run this long counts as healthy again: the next crash starts the pauses over. */
  healthyRunMs: number;
  /** Where each crash is appended as a JSON line. */
  crashLog: string;
  note: (line: string) => void;
  /** Called when supervision ends: the server was stopped (0) or crashed too often in a row (1). */
  onEnd: (exitCode: 0 | 1) => void;
};

export const defaultSupervisorTiming = {
  restartPausesMs: [1_000, 2_000, 5_000, 10_000, 30_000],
  healthyRunMs: 60_000,
} as const;

/**
 * Runs a local server and restarts it when it dies unexpectedly, after a growing pause, recording each
 * crash. Its data is checked before each start (`prepareData`), so a store left damaged by the crash does
 * not keep it down. More quick crashes in a row than there are pauses, and it gives up.
 */
export const superviseServer = (
  server: Pick<ServerDefinition, 'name' | 'command' | 'prepareData'>,
  options: SupervisorOptions,
): { stop: (signal?: NodeJS.Signals) => void } => {
  let child: ChildProcess | undefined;
  let stopping = false;
  let quickCrashes = 0;

  const run = async (): Promise<void> => {
    await server.prepareData?.();
    if (stopping) return options.onEnd(0);
    const { command, args, env } = server.command();
    const startedAt = Date.now();
    child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.once('exit', (code, signal) => {
      child = undefined;
      if (stopping) return options.onEnd(0);
      const ranMs = Date.now() - startedAt;
      quickCrashes = ranMs >= options.healthyRunMs ? 1 : quickCrashes + 1;
      const pauses = options.restartPausesMs;
      const restarting = quickCrashes <= pauses.length;
      const pauseMs = restarting ? (pauses[quickCrashes - 1] ?? 0) : 0;
      const crash: Crash = { at: new Date().toISOString(), code, signal, ranMs, restarting, pauseMs };
      appendFileSync(options.crashLog, `${JSON.stringify(crash)}\n`);
      if (!restarting) {
        options.note(
          `${server.name} crashed ${quickCrashes} times in a row (code ${code}, signal ${signal}); giving up`,
        );
        return options.onEnd(1);
      }
      options.note(
        `${server.name} exited (code ${code}, signal ${signal}) after ${ranMs} ms; restarting in ${pauseMs} ms`,
      );
      setTimeout(() => void run().catch(fail), pauseMs);
    });
  };

  const fail = (error: unknown) => {
    options.note(
      `${server.name} could not be started: ${error instanceof Error ? error.message : String(error)}`,
    );
    options.onEnd(1);
  };

  void run().catch(fail);
  return {
    stop: (signal = 'SIGTERM') => {
      stopping = true;
      if (child) child.kill(signal);
      else options.onEnd(0);
    },
  };
};
