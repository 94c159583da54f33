/**
 * The one command-line entry: `ledgerwise <gateway|projector|worker|analytics|all|infra> [...]`.
 * Each role is a process in production; `all` runs them together for local use.
 */
import { createServer, type Server } from 'node:http';
import pino, { type Logger } from 'pino';
import { ConfigError, loadConfig, type Config } from '../contracts/config';
import type { RunningProcess } from '../contracts/health';
import { logRedaction } from '../gateway/plugins/log-redaction';
import type { RoleStarter } from './role';

const roles: Record<string, () => Promise<RoleStarter>> = {
  gateway: async () => (await import('../gateway/gateway-role')).startGatewayRole,
  projector: async () => (await import('../projections/projector-role')).startProjectorRole,
  worker: async () => (await import('../workflows/worker-role')).startWorkerRole,
  analytics: async () => (await import('../workflows/analytics/analytics-role')).startAnalyticsRole,
};

const healthPorts = (config: Config): Record<string, number | undefined> => ({
  gateway: undefined, // the gateway answers /api/health itself
  projector: config.PROJECTOR_HEALTH_PORT,
  worker: config.WORKER_HEALTH_PORT,
  analytics: config.ANALYTICS_HEALTH_PORT,
});

const usage = `Usage: ledgerwise <command>

  gateway | projector | worker | analytics   run one process
  all [--no-infra]                           run every process in one (starts the local servers first)
  infra up|down|status|logs [server]         manage the local servers (deploy/local)
  projections status | rebuild <name>        read-model lag, or rebuild one read model
  history <streamId> [--from=N] [--limit=N]  replay an aggregate's events with the state after each
  billing catalogue | backfill               apply the plan catalogue, or give every company a subscription
  forecast --input series.csv [...]          forecast revenue series from a CSV (forecast --help)
`;

/** A small HTTP server answering GET /health for roles that have no HTTP server of their own. */
const serveHealth = (role: RunningProcess, port: number, host: string): Promise<Server> =>
  new Promise((resolve, reject) => {
    const server = createServer((request, response) => {
      if (request.url !== '/health') {
        response.writeHead(404).end();
        return;
      }
      role
        .health()
        .then((report) => {
          response.writeHead(report.ok ? 200 : 503, { 'content-type': 'application/json' });
          response.end(JSON.stringify(report));
        })
        .catch((error: unknown) => {
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ ok: false, error: String(error) }));
        });
    });
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });

const runRoles = async (names: string[], config: Config, logger: Logger): Promise<void> => {
  const running: { role: RunningProcess; server?: Server }[] = [];
  let stopping = false;

  const stopAll = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    // Stop in reverse start order: the gateway stops taking requests before the workers go.
    for (const { role, server } of running.reverse()) {
      try {
        server?.close();
        await role.stop();
        logger.info({ process: role.name }, 'stopped');
      } catch (error) {
        logger.error({ process: role.name, err: error }, 'failed to stop cleanly');
      }
    }
    process.exit(0);
  };
  // `on`, not `once`: Ctrl-C reaches both tsx and this process, so a second SIGINT arrives while stopping.
  process.on('SIGINT', () => void stopAll('SIGINT'));
  process.on('SIGTERM', () => void stopAll('SIGTERM'));

  for (const name of names) {
    const loadRole = roles[name];
    if (!loadRole) throw new Error(`unknown process ${name}`);
    const start = await loadRole();
    const role = await start(config, logger.child({ process: name }));
    const port = healthPorts(config)[name];
    const server = port === undefined ? undefined : await serveHealth(role, port, config.GATEWAY_HOST);
    running.push({ role, server });
    logger.info(
      { process: name, health: port ? `http://${config.GATEWAY_HOST}:${port}/health` : undefined },
      'started',
    );
  }
};

const main = async (argv: string[]): Promise<void> => {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === 'help') {
    process.stdout.write(usage);
    return;
  }
  if (command === 'infra') {
    const { runInfraCommand } = await import('../deploy/local/infra-cli');
    process.exitCode = await runInfraCommand(rest);
    return;
  }

  if (command === 'forecast') {
    // Needs no configuration and no server: a pure computation over a file.
    const { runForecastCommand, forecastUsage } = await import('./forecast-series');
    if (rest.includes('--help')) process.stdout.write(forecastUsage);
    else process.exitCode = runForecastCommand(rest);
    return;
  }

  const config = loadConfig(process.env);
  // Request URLs and headers are logged without the credentials they may carry (log-redaction.ts).
  const logger = pino({ level: config.LOG_LEVEL, base: { app: 'ledgerwise' }, ...logRedaction });

  if (command === 'projections') {
    const { runProjectionsCommand } = await import('../projections/projections-cli');
    process.exitCode = await runProjectionsCommand(rest, config, logger);
    return;
  }

  if (command === 'billing') {
    const { runBillingCommand } = await import('./billing');
    process.exitCode = await runBillingCommand(rest, config, logger);
    return;
  }

  if (command === 'history') {
    const { printStreamHistory } = await import('./print-stream-history');
    process.exitCode = await printStreamHistory(config, rest);
    return;
  }
  if (command === 'all') {
    if (!rest.includes('--no-infra')) {
      const { runInfraCommand } = await import('../deploy/local/infra-cli');
      const code = await runInfraCommand(['up']);
      if (code !== 0) throw new Error('the local servers did not start; see the messages above');
    }
    await runRoles(['projector', 'worker', 'analytics', 'gateway'], config, logger);
    const seeded = config.SEED_DEMO ? await (await import('./seed-demo')).seedDemo(config, logger) : null;
    const signIn = seeded
      ? `\n  Sign in:     ${config.PLATFORM_ADMIN_EMAILS[0] ?? '-'} (platform admin) or demo@ledgerwise.local, password ${config.SEED_ADMIN_PASSWORD}`
      : '';
    process.stdout.write(
      `\nLedgerwise is running.\n  App:         ${config.PUBLIC_URL}\n  Temporal UI: ${config.TEMPORAL_UI_URL}\n  MailDev:     ${config.MAILDEV_URL}${signIn}\nPress Ctrl-C to stop.\n`,
    );
    return;
  }
  if (command in roles) {
    await runRoles([command], config, logger);
    return;
  }
  process.stderr.write(`Unknown command: ${command}\n\n${usage}`);
  process.exitCode = 2;
};

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `ledgerwise: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
