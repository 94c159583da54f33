import { z } from 'zod';

/** The answer of every process's health endpoint (/api/health on the gateway, /health on the others). */
export const HealthCheck = z.object({ name: z.string(), ok: z.boolean(), detail: z.string().optional() });
export type HealthCheck = z.infer<typeof HealthCheck>;

export const HealthReport = z.object({ process: z.string(), ok: z.boolean(), checks: z.array(HealthCheck) });
export type HealthReport = z.infer<typeof HealthReport>;

/** A running process role (gateway, projector, worker, analytics) as the CLI manages it. */
export type RunningProcess = {
  name: string;
  health: () => Promise<HealthReport>;
  /** Stops taking work, finishes what is in flight and releases connections. */
  stop: () => Promise<void>;
};

/** Runs one dependency check with a time limit, so one hung dependency cannot hang the health endpoint. */
export const check = async (
  name: string,
  probe: () => Promise<unknown>,
  timeoutMs = 2000,
): Promise<HealthCheck> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
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
