import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The repository root (this file sits in deploy/local). */
export const repoRoot = resolve(__dirname, '..', '..');

/**
 * Built or fetched servers live in a per-user cache, so every clone on the machine reuses them;
 * their data lives in the clone's git-ignored .data folder.
 */
export const cacheRoot = (): string =>
  process.env.LEDGERWISE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'ledgerwise');

export const dataRoot = (): string => resolve(repoRoot, process.env.DATA_DIR ?? '.data');

export const runDir = (): string => join(dataRoot(), 'run');
export const logDir = (): string => join(dataRoot(), 'logs');
