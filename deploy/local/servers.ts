import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, writeFileSync, chmodSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { cacheRoot, dataRoot, repoRoot } from './paths';
import { setAsideDamagedFerretDatabases } from './ferret-repair';
import { InfraError, requireTool, runStep } from './shell';

/**
 * The local servers of docs/adr/0001-local-servers.md: each pinned to a version, built or fetched
 * from a package registry into the per-user cache, started on loopback, and checked for real readiness.
 */
export type ServerDefinition = {
  name: string;
  version: string;
  /** What a person opens or a client connects to, for `infra status`. */
  endpoints: string[];
  /** True when the server's files are in the cache. */
  isProvisioned: () => boolean;
  /** Builds or fetches the server into the cache (first run only; may take minutes). */
  provision: () => Promise<void>;
  /** One-time preparation of the data folder before the first start. */
  prepareData?: () => Promise<void>;
  command: () => { command: string; args: string[]; env?: NodeJS.ProcessEnv };
  /** True only when the server answers real requests, not merely when its port is open. */
  isReady: () => Promise<boolean>;
  /** How long a start may take before it counts as failed. */
  startTimeoutMs: number;
};

const serverCache = (name: string, version: string) => join(cacheRoot(), `${name}-${version}`);
const serverData = (name: string) => join(dataRoot(), name);
const goHint = 'Install Go 1.22 or newer (https://go.dev/doc/install, or the golang-go package) and retry.';

const portOpen = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });

const httpOk = async (url: string, headers?: Record<string, string>): Promise<boolean> => {
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(2000) });
    return response.ok;
  } catch {
    return false;
  }
};

// ---------------------------------------------------------------------------------------------
// Temporal dev server (with the Web UI compiled in)

const TEMPORAL_VERSION = '1.5.1';
const temporalBinary = () => join(serverCache('temporal', TEMPORAL_VERSION), 'bin', 'temporal');

const temporal: ServerDefinition = {
  name: 'temporal',
  version: TEMPORAL_VERSION,
  endpoints: ['grpc 127.0.0.1:7233', 'Web UI http://127.0.0.1:8233'],
  startTimeoutMs: 90_000,
  isProvisioned: () => existsSync(temporalBinary()),
  provision: async () => {
    await requireTool('go', goHint);
    process.stdout.write(
      `Building the Temporal CLI v${TEMPORAL_VERSION} with its Web UI (first time only: several minutes)...\n`,
    );
    await runStep('go', ['install', `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_VERSION}`], {
      label: 'temporal build',
      env: { GOBIN: join(serverCache('temporal', TEMPORAL_VERSION), 'bin'), GOFLAGS: '-mod=mod' },
    });
  },
  command: () => ({
    command: temporalBinary(),
    args: [
      'server',
      'start-dev',
      '--ip',
      '127.0.0.1',
      '--port',
      '7233',
      '--ui-port',
      '8233',
      '--db-filename',
      join(serverData('temporal'), 'temporal.db'),
      '--namespace',
      'default',
      // Operators find a tenant's or a seller's workflows in the Temporal UI by these.
      '--search-attribute',
      'TenantId=Int',
      '--search-attribute',
      'SellerId=Int',
      '--log-level',
      'warn',
    ],
  }),
  prepareData: () => {
    mkdirSync(serverData('temporal'), { recursive: true });
    return Promise.resolve();
  },
  isReady: async () => {
    if (!(await portOpen(7233))) return false;
    if (!(await httpOk('http://127.0.0.1:8233/'))) return false;
    // The frontend answers before the default namespace is registered; wait for the namespace.
    const { Connection } = await import('@temporalio/client');
    let connection: Awaited<ReturnType<typeof Connection.connect>> | undefined;
    try {
      connection = await Connection.connect({ address: '127.0.0.1:7233', connectTimeout: 2000 });
      await connection.workflowService.describeNamespace({ namespace: 'default' });
      return true;
    } catch {
      return false;
    } finally {
      await connection?.close();
    }
  },
};

// ---------------------------------------------------------------------------------------------
// FerretDB v1 on SQLite: the MongoDB wire protocol

const FERRETDB_VERSION = '1.24.2';
const ferretBinary = () => join(serverCache('ferretdb', FERRETDB_VERSION), 'bin', 'ferretdb');

const ferretdb: ServerDefinition = {
  name: 'ferretdb',
  version: FERRETDB_VERSION,
  endpoints: ['mongodb://127.0.0.1:27017'],
  startTimeoutMs: 30_000,
  isProvisioned: () => existsSync(ferretBinary()),
  provision: async () => {
    await requireTool('go', goHint);
    process.stdout.write(`Building FerretDB v${FERRETDB_VERSION} (first time only: about two minutes)...\n`);
    const build = join(serverCache('ferretdb', FERRETDB_VERSION), 'build');
    mkdirSync(build, { recursive: true });
    writeFileSync(
      join(build, 'tools.go'),
      '//go:build tools\n\npackage tools\n\nimport _ "github.com/FerretDB/FerretDB/cmd/ferretdb"\n',
    );
    if (!existsSync(join(build, 'go.mod'))) {
      await runStep('go', ['mod', 'init', 'ledgerwise.local/ferretdb-build'], {
        cwd: build,
        label: 'ferretdb build',
      });
    }
    const module = `github.com/FerretDB/FerretDB`;
    await runStep('go', ['get', `${module}/cmd/ferretdb@v${FERRETDB_VERSION}`], {
      cwd: build,
      label: 'ferretdb build',
    });
    // The published module lacks build/version/version.txt, which the binary embeds and checks at
    // start-up; build from a writable copy of the module with that file written.
    const moduleDir = execFileSync('go', ['list', '-m', '-f', '{{.Dir}}', module], { cwd: build })
      .toString()
      .trim();
    const source = join(build, 'src');
    if (!existsSync(join(source, 'go.mod'))) {
      cpSync(moduleDir, source, { recursive: true });
      await runStep('chmod', ['-R', 'u+w', source], { label: 'ferretdb build' });
    }
    writeFileSync(join(source, 'build', 'version', 'version.txt'), `v${FERRETDB_VERSION}\n`);
    await runStep('go', ['mod', 'edit', `-replace=${module}=./src`], { cwd: build, label: 'ferretdb build' });
    await runStep('go', ['build', '-o', ferretBinary(), `${module}/cmd/ferretdb`], {
      cwd: build,
      label: 'ferretdb build',
      env: { CGO_ENABLED: '0' },
    });
  },
  prepareData: async () => {
    mkdirSync(join(serverData('ferretdb'), 'sqlite'), { recursive: true });
    mkdirSync(join(serverData('ferretdb'), 'state'), { recursive: true });
    await setAsideDamagedFerretDatabases(join(serverData('ferretdb'), 'sqlite'));
  },
  command: () => ({
    command: ferretBinary(),
    args: [
      '--handler=sqlite',
      `--sqlite-url=file:${join(serverData('ferretdb'), 'sqlite')}/`,
      '--listen-addr=127.0.0.1:27017',
      `--state-dir=${join(serverData('ferretdb'), 'state')}`,
      '--telemetry=disable',
      '--debug-addr=-',
      '--log-level=warn',
    ],
  }),
  isReady: async () => {
    if (!(await portOpen(27017))) return false;
    const { MongoClient } = await import('mongodb');
    const client = new MongoClient('mongodb://127.0.0.1:27017', { serverSelectionTimeoutMS: 1500 });
    try {
      await client.connect();
      await client.db('admin').command({ ping: 1 });
      return true;
    } catch {
      return false;
    } finally {
      await client.close();
    }
  },
};

// ---------------------------------------------------------------------------------------------
// Apache Kafka, KRaft single node, from Maven Central

const KAFKA_VERSION = '3.9.1';
const kafkaLib = () => join(serverCache('kafka', KAFKA_VERSION), 'lib');
const kafkaConfig = () => join(serverData('kafka'), 'server.properties');

const kafka: ServerDefinition = {
  name: 'kafka',
  version: KAFKA_VERSION,
  endpoints: ['127.0.0.1:9092'],
  startTimeoutMs: 90_000,
  isProvisioned: () => existsSync(join(kafkaLib(), `kafka_2.13-${KAFKA_VERSION}.jar`)),
  provision: async () => {
    await requireTool('java', 'Install a Java 17 runtime (the openjdk-17-jre-headless package) and retry.');
    await requireTool('mvn', 'Install Maven (the maven package) and retry.');
    process.stdout.write(`Fetching Kafka ${KAFKA_VERSION} from Maven Central (first time only)...\n`);
    await runStep(
      'mvn',
      [
        '-q',
        '-B',
        '-f',
        join(repoRoot, 'deploy/local/kafka/pom.xml'),
        'dependency:copy-dependencies',
        `-DoutputDirectory=${kafkaLib()}`,
        '-DincludeScope=runtime',
      ],
      { label: 'kafka fetch' },
    );
  },
  prepareData: async () => {
    const data = serverData('kafka');
    if (existsSync(join(data, 'log', 'meta.properties'))) return;
    mkdirSync(join(data, 'log'), { recursive: true });
    const properties = [
      'process.roles=broker,controller',
      'node.id=1',
      'controller.quorum.voters=1@127.0.0.1:9093',
      'listeners=PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093',
      'advertised.listeners=PLAINTEXT://127.0.0.1:9092',
      'controller.listener.names=CONTROLLER',
      'inter.broker.listener.name=PLAINTEXT',
      'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      `log.dirs=${join(data, 'log')}`,
      'num.partitions=3',
      'offsets.topic.replication.factor=1',
      'offsets.topic.num.partitions=3',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'share.coordinator.state.topic.replication.factor=1',
      'group.initial.rebalance.delay.ms=0',
      'auto.create.topics.enable=true',
    ];
    writeFileSync(kafkaConfig(), `${properties.join('\n')}\n`);
    const clusterId = 'bGVkZ2Vyd2lzZS1sb2NhbA'; // fixed: the data folder belongs to this one local node
    await runStep(
      'java',
      [
        '-cp',
        `${kafkaLib()}/*`,
        'kafka.tools.StorageTool',
        'format',
        '-t',
        clusterId,
        '-c',
        kafkaConfig(),
        '--ignore-formatted',
      ],
      { label: 'kafka format', env: { KAFKA_LOG4J_OPTS: '' } },
    );
  },
  command: () => ({
    command: 'java',
    args: [
      '-Xmx512m',
      '-Xms256m',
      '-XX:+UseG1GC',
      `-Dlog4j.configuration=file:${join(repoRoot, 'deploy/local/kafka/log4j.properties')}`,
      '-cp',
      `${kafkaLib()}/*`,
      'kafka.Kafka',
      kafkaConfig(),
    ],
  }),
  isReady: async () => {
    if (!(await portOpen(9092))) return false;
    const { Kafka, logLevel } = await import('kafkajs');
    const admin = new Kafka({
      brokers: ['127.0.0.1:9092'],
      logLevel: logLevel.NOTHING,
      retry: { retries: 0 },
    }).admin();
    try {
      await admin.connect();
      await admin.listTopics();
      return true;
    } catch {
      return false;
    } finally {
      await admin.disconnect();
    }
  },
};

// ---------------------------------------------------------------------------------------------
// stripe-mock: what stripe-node's own tests run against

const STRIPE_MOCK_VERSION = '0.203.0';
const stripeMockBinary = () => join(serverCache('stripe-mock', STRIPE_MOCK_VERSION), 'bin', 'stripe-mock');

const stripeMock: ServerDefinition = {
  name: 'stripe-mock',
  version: STRIPE_MOCK_VERSION,
  endpoints: ['http://127.0.0.1:12111'],
  startTimeoutMs: 30_000,
  isProvisioned: () => existsSync(stripeMockBinary()),
  provision: async () => {
    await requireTool('go', goHint);
    process.stdout.write(`Building stripe-mock v${STRIPE_MOCK_VERSION} (first time only)...\n`);
    await runStep('go', ['install', `github.com/stripe/stripe-mock@v${STRIPE_MOCK_VERSION}`], {
      label: 'stripe-mock build',
      env: { GOBIN: join(serverCache('stripe-mock', STRIPE_MOCK_VERSION), 'bin') },
    });
  },
  command: () => ({ command: stripeMockBinary(), args: ['-http-addr', '127.0.0.1:12111'] }),
  isReady: () => httpOk('http://127.0.0.1:12111/v1/customers', { authorization: 'Bearer sk_test_123' }),
};

// ---------------------------------------------------------------------------------------------
// MailDev: SMTP 1025, web UI and REST API 1080

const MAILDEV_VERSION = '2.2.1';
const maildevDir = () => serverCache('maildev', MAILDEV_VERSION);
const maildevBin = () => join(maildevDir(), 'node_modules', 'maildev', 'bin', 'maildev');

const maildev: ServerDefinition = {
  name: 'maildev',
  version: MAILDEV_VERSION,
  endpoints: ['smtp://127.0.0.1:1025', 'Web UI http://127.0.0.1:1080'],
  startTimeoutMs: 30_000,
  isProvisioned: () => existsSync(maildevBin()),
  provision: async () => {
    process.stdout.write(`Installing MailDev ${MAILDEV_VERSION} from npm (first time only)...\n`);
    mkdirSync(maildevDir(), { recursive: true });
    writeFileSync(join(maildevDir(), 'package.json'), '{ "private": true }\n');
    await runStep('npm', ['install', '--no-audit', '--no-fund', '--omit=dev', `maildev@${MAILDEV_VERSION}`], {
      cwd: maildevDir(),
      label: 'maildev install',
    });
    chmodSync(maildevBin(), 0o755);
  },
  command: () => ({
    command: process.execPath,
    args: [
      maildevBin(),
      '--ip',
      '127.0.0.1',
      '--smtp',
      '1025',
      '--web',
      '1080',
      '--web-ip',
      '127.0.0.1',
      '--silent',
    ],
  }),
  isReady: async () => (await portOpen(1025)) && (await httpOk('http://127.0.0.1:1080/email')),
};

// ---------------------------------------------------------------------------------------------
// s3rver: an S3-compatible object store on the local disk, for the report archive (docs/adr/0035)

const S3RVER_VERSION = '3.7.1';
/** s3rver accepts only this fixed key pair (it checks request signatures). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;
const s3rverDir = () => serverCache('s3rver', S3RVER_VERSION);
const s3rverBin = () => join(s3rverDir(), 'node_modules', 's3rver', 'bin', 's3rver.js');

const s3rver: ServerDefinition = {
  name: 's3rver',
  version: S3RVER_VERSION,
  endpoints: ['S3 http://127.0.0.1:4568'],
  startTimeoutMs: 30_000,
  isProvisioned: () => existsSync(s3rverBin()),
  provision: async () => {
    process.stdout.write(`Installing s3rver ${S3RVER_VERSION} from npm (first time only)...\n`);
    mkdirSync(s3rverDir(), { recursive: true });
    writeFileSync(join(s3rverDir(), 'package.json'), '{ "private": true }\n');
    await runStep('npm', ['install', '--no-audit', '--no-fund', '--omit=dev', `s3rver@${S3RVER_VERSION}`], {
      cwd: s3rverDir(),
      label: 's3rver install',
    });
  },
  prepareData: () => {
    mkdirSync(serverData('s3rver'), { recursive: true });
    return Promise.resolve();
  },
  command: () => ({
    command: process.execPath,
    args: [
      s3rverBin(),
      '--directory',
      serverData('s3rver'),
      '--address',
      '127.0.0.1',
      '--port',
      '4568',
      '--no-vhost-buckets',
      '--silent',
    ],
  }),
  // A signed ListBuckets: the server is up and checks signatures as the application's client expects.
  isReady: async () => {
    if (!(await portOpen(4568))) return false;
    // `infra status` output stays readable: the SDK's warning about Node 20 support ending is in ADR 0035.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    const { S3Client, ListBucketsCommand } = await import('@aws-sdk/client-s3');
    const client = new S3Client({
      endpoint: 'http://127.0.0.1:4568',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
      maxAttempts: 1,
    });
    try {
      await client.send(new ListBucketsCommand({}), { abortSignal: AbortSignal.timeout(2000) });
      return true;
    } catch {
      return false;
    } finally {
      client.destroy();
    }
  },
};

export const servers: readonly ServerDefinition[] = [temporal, ferretdb, kafka, stripeMock, maildev, s3rver];

export const serverNamed = (name: string): ServerDefinition => {
  const server = servers.find((s) => s.name === name);
  if (!server)
    throw new InfraError(`Unknown server ${name}. Known: ${servers.map((s) => s.name).join(', ')}`);
  return server;
};
