import type { Logger } from 'pino';
import type { Config } from '../contracts/config';
import type { RunningProcess } from '../contracts/health';

/** How the CLI starts a process role; each role lives in its own folder (gateway/, projections/, workflows/). */
export type RoleStarter = (config: Config, logger: Logger) => Promise<RunningProcess>;
