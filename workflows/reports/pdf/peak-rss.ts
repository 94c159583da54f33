import { readFileSync } from 'node:fs';

/**
 * The process's own peak resident memory, kilobytes: VmHWM on Linux, where getrusage's maxrss of a
 * spawned process also counts its parent's memory at the fork; maxrss elsewhere.
 */
export const peakRssKb = (): number => {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm?.[1]) return Number(hwm[1]);
  } catch {
    // Not Linux: fall back to getrusage.
  }
  return process.resourceUsage().maxRSS;
};
