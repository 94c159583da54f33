import type { Logger } from 'pino';
import type { Config } from '../contracts/config';

/** The health of one dependency or of a whole process, as /health answers it. */
export type HealthCheck = { name: string; ok: boolean; detail?: string };
export type HealthReport = { process: string; ok: boolean; checks: HealthCheck[] };

/** A running process role (gateway, projector, worker, analytics). */
export type RunningRole = {
  name: string;
  health: () => Promise<HealthReport>;
  /** Stops accepting work, finishes what is in flight and releases connections. */
  stop: () => Promise<void>;
};

export type RoleStarter = (config: Config, logger: Logger) => Promise<RunningRole>;

/** Runs a check with a time limit, so one hung dependency cannot hang the health endpoint. */
export const check = async (name: string, probe: () => Promise<unknown>, timeoutMs = 2000): Promise<HealthCheck> => {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { name, ok: true };
  } catch (error) {
    return { name, ok: false, detail: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
};

export const healthReport = (process: string, checks: HealthCheck[]): HealthReport => ({
  process,
  ok: checks.every((c) => c.ok),
  checks,
});
