import type { StartedTestContainer } from 'testcontainers';
import { servers, type ServerDefinition } from '../../deploy/local/servers';

/**
 * Where each real server of a test run comes from, in this order (docs/adr/0002-test-harness.md):
 * 1. the environment, when its variable is set (a shared CI service, a developer's own server);
 * 2. a container, when a Docker runtime answers (testcontainers);
 * 3. the local servers of deploy/local, started if they are not running.
 */
export const variableOf: Record<string, string> = {
  temporal: 'TEMPORAL_ADDRESS',
  ferretdb: 'MONGO_URL',
  kafka: 'KAFKA_BROKERS',
  'stripe-mock': 'STRIPE_API_URL',
  maildev: 'SMTP_URL',
  s3rver: 'S3_ENDPOINT',
};

/**
 * The same servers as deploy/compose.yaml, on the same host ports, so the configuration defaults hold
 * whichever source is used.
 */
const containerImages: Record<
  string,
  { image: string; ports: number[]; command?: string[]; env?: Record<string, string> }
> = {
  temporal: {
    image: 'temporalio/temporal:1.5.1',
    ports: [7233, 8233],
    command: [
      'server',
      'start-dev',
      '--ip',
      '0.0.0.0',
      '--search-attribute',
      'TenantId=Int',
      '--search-attribute',
      'SellerId=Int',
    ],
  },
  ferretdb: { image: 'mongo:7.0', ports: [27017] },
  kafka: {
    image: 'apache/kafka:3.9.1',
    ports: [9092],
    env: {
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'PLAINTEXT://0.0.0.0:9092,CONTROLLER://0.0.0.0:9093',
      KAFKA_ADVERTISED_LISTENERS: 'PLAINTEXT://127.0.0.1:9092',
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
    },
  },
  'stripe-mock': { image: 'stripe/stripe-mock:v0.203.0', ports: [12111] },
  maildev: { image: 'maildev/maildev:2.2.1', ports: [1025, 1080] },
  // s3rver publishes no image of its own: the same npm package on Node's image.
  s3rver: {
    image: 'node:20-alpine',
    ports: [4568],
    command: [
      'npx',
      '--yes',
      's3rver@3.7.1',
      '-d',
      '/tmp/s3',
      '-a',
      '0.0.0.0',
      '-p',
      '4568',
      '--no-vhost-buckets',
    ],
  },
};

/** True when a Docker (or compatible) runtime answers within a few seconds. */
export const dockerAnswers = async (): Promise<boolean> => {
  if (process.env.LEDGERWISE_TEST_NO_DOCKER === '1') return false;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('timeout')), 5000).unref(),
    );
    await Promise.race([getContainerRuntimeClient(), timeout]);
    return true;
  } catch {
    return false;
  }
};

const waitReady = async (server: ServerDefinition): Promise<void> => {
  const deadline = Date.now() + server.startTimeoutMs;
  while (!(await server.isReady())) {
    if (Date.now() > deadline) throw new Error(`${server.name} container did not become ready`);
    await new Promise((r) => setTimeout(r, 500));
  }
};

export const startContainers = async (names: readonly string[]): Promise<StartedTestContainer[]> => {
  const { GenericContainer } = await import('testcontainers');
  const started: StartedTestContainer[] = [];
  for (const name of names) {
    const spec = containerImages[name];
    const server = servers.find((s) => s.name === name);
    if (!spec || !server) throw new Error(`no container for ${name}`);
    let container = new GenericContainer(spec.image).withExposedPorts(
      ...spec.ports.map((port) => ({ container: port, host: port })),
    );
    if (spec.command) container = container.withCommand(spec.command);
    if (spec.env) container = container.withEnvironment(spec.env);
    started.push(await container.start());
    await waitReady(server);
  }
  return started;
};
