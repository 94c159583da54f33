/** The idle warning shows this long before the idle logout (portal.md section 4). */
export const idleWarningMs = 60_000;

export type IdlePhase = 'active' | 'warning' | 'expired';

/** Where a session stands after `now - lastActivityAt` without mouse, keyboard or touch activity. */
export const idlePhase = (input: { now: number; lastActivityAt: number; timeoutMs: number }): IdlePhase => {
  const left = input.lastActivityAt + input.timeoutMs - input.now;
  if (left <= 0) return 'expired';
  return left <= idleWarningMs ? 'warning' : 'active';
};
