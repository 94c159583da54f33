import { z } from 'zod';

/**
 * Every process reads one configuration object, parsed from the environment once at start-up.
 * Defaults point at the local servers of deploy/local, so nothing needs configuring to run locally.
 * A bad variable stops the process with a message that names it (see loadConfig).
 */
const url = (protocols: readonly string[]) =>
  z
    .string()
    .trim()
    .refine((value) => protocols.some((p) => value.startsWith(`${p}://`)), {
      message: `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    });

const port = z.coerce.number().int().min(1).max(65535);

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const DEV_SESSION_SECRET = 'ledgerwise-local-development-secret-do-not-use';

export const ConfigEnv = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATA_DIR: z.string().min(1).default('.data'),

    GATEWAY_HOST: z.string().min(1).default('127.0.0.1'),
    GATEWAY_PORT: port.default(3000),
    PUBLIC_URL: url(['http', 'https']).default('http://127.0.0.1:3000'),
    PROJECTOR_HEALTH_PORT: port.default(3001),
    WORKER_HEALTH_PORT: port.default(3002),
    ANALYTICS_HEALTH_PORT: port.default(3003),
    SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').default(DEV_SESSION_SECRET),

    /** When set, events go to EventStoreDB; otherwise to the embedded SQLite store under DATA_DIR. */
    EVENTSTORE_URL: url(['esdb', 'esdb+discover']).optional(),
    MONGO_URL: url(['mongodb', 'mongodb+srv']).default('mongodb://127.0.0.1:27017/ledgerwise'),
    KAFKA_BROKERS: z
      .string()
      .default('127.0.0.1:9092')
      .transform((value) => value.split(',').map((broker) => broker.trim()))
      .pipe(z.array(z.string().regex(/^[^:\s]+:\d+$/, 'must be host:port[,host:port...]')).min(1)),
    TEMPORAL_ADDRESS: z
      .string()
      .regex(/^[^:\s]+:\d+$/, 'must be host:port')
      .default('127.0.0.1:7233'),
    TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
    TEMPORAL_UI_URL: url(['http', 'https']).default('http://127.0.0.1:8233'),
    /** Task queues are `<prefix>-<concern>` (sync, metrics, reports, datasets, system); tests use their own prefix. */
    TEMPORAL_TASK_QUEUE_PREFIX: z
      .string()
      .regex(/^[\w.-]+$/, 'letters, digits, dot, dash or underscore')
      .default('ledgerwise'),
    /** Kafka topics and consumer groups are prefixed too, so test runs never share them. */
    KAFKA_TOPIC_PREFIX: z
      .string()
      .regex(/^[\w.-]+$/, 'letters, digits, dot, dash or underscore')
      .default('ledgerwise'),
    SMTP_URL: url(['smtp', 'smtps']).default('smtp://127.0.0.1:1025'),
    MAIL_FROM: z.string().min(3).default('Ledgerwise <reports@ledgerwise.local>'),
    MAILDEV_URL: url(['http', 'https']).default('http://127.0.0.1:1080'),
    STRIPE_API_URL: url(['http', 'https']).default('http://127.0.0.1:12111'),
    STRIPE_SECRET_KEY: z.string().min(1).default('sk_test_123'),
    SEED_DEMO: booleanFlag.default(true),
    /**
     * Platform administrators are named by the operator, never granted through the API
     * (docs/adr/0013-gateway-access.md): accounts with these emails get the platform-admin flag.
     */
    PLATFORM_ADMIN_EMAILS: z
      .string()
      .default('admin@ledgerwise.local')
      .transform((value) =>
        value
          .split(',')
          .map((email) => email.trim().toLowerCase())
          .filter(Boolean),
      ),
    /** Password of the seeded platform administrator on a local run (SEED_DEMO); never used in production. */
    SEED_ADMIN_PASSWORD: z.string().min(8).default('Ledgerwise-admin-1'),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && env.SESSION_SECRET === DEV_SESSION_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['SESSION_SECRET'],
        message: 'must be set to a secret of your own in production',
      });
    }
  });

export type Config = z.infer<typeof ConfigEnv>;

/** Raised when the environment does not describe a valid configuration; the message names each variable. */
export class ConfigError extends Error {
  readonly variables: string[];

  constructor(problems: { variable: string; problem: string }[]) {
    super(
      `Invalid configuration:\n${problems.map(({ variable, problem }) => `  ${variable}: ${problem}`).join('\n')}`,
    );
    this.name = 'ConfigError';
    this.variables = problems.map(({ variable }) => variable);
  }
}

export const loadConfig = (env: Record<string, string | undefined>): Config => {
  // Empty strings count as unset, as shells and .env files often leave them.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = ConfigEnv.safeParse(present);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => ({
      variable: String(issue.path[0] ?? '(environment)'),
      problem: issue.message,
    })),
  );
};
