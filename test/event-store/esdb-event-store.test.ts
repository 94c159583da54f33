import { spawnSync } from 'node:child_process';
import { describeEventStoreContract } from '../../commands/event-store/event-store.contract';
import { openEsdbEventStore } from '../../commands/event-store/esdb-event-store';

/**
 * The event-store contract against EventStoreDB / KurrentDB: a server named by EVENTSTORE_URL, or a
 * container when testcontainers finds a Docker runtime. Neither exists on machines without Docker
 * (docs: local-infra.md), and then the skip says so in the test report, not just in a log.
 */

const IMAGE = process.env.EVENTSTORE_IMAGE ?? 'docker.kurrent.io/kurrent-latest/kurrentdb:latest';
const HTTP_PORT = 2113;

/** Jest registers tests synchronously, so the (async) runtime probe runs in a short-lived child process. */
const probeContainerRuntime = (): { available: boolean; reason: string } => {
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      `require('testcontainers').getContainerRuntimeClient().then(
         () => process.exit(0),
         (e) => { process.stderr.write(String(e && e.message)); process.exit(1); })`,
    ],
    { encoding: 'utf8', timeout: 30_000 },
  );
  const output = (probe.stderr || probe.error?.message || 'no output').trim();
  // A crash while loading testcontainers prints a stack: its error line says more than its last line.
  const reason =
    output.split('\n').find((line) => /^\w*Error\b/.test(line)) ?? output.split('\n').slice(-1).join('');
  return { available: probe.status === 0, reason };
};

const url = process.env.EVENTSTORE_URL;

if (url) {
  describeEventStoreContract(`EventStoreDB at ${url}`, () => openEsdbEventStore({ connectionString: url }));
} else {
  const runtime = probeContainerRuntime();
  if (runtime.available) {
    describe('EventStoreDB in a container', () => {
      let connectionString = '';
      let stop: (() => Promise<unknown>) | undefined;

      beforeAll(async () => {
        const { GenericContainer, Wait } = await import('testcontainers');
        const container = await new GenericContainer(IMAGE)
          .withEnvironment({
            EVENTSTORE_INSECURE: 'true',
            EVENTSTORE_RUN_PROJECTIONS: 'All',
            EVENTSTORE_MEM_DB: 'true',
            KURRENTDB_INSECURE: 'true',
            KURRENTDB_RUN_PROJECTIONS: 'All',
            KURRENTDB_MEM_DB: 'true',
          })
          .withExposedPorts(HTTP_PORT)
          .withWaitStrategy(Wait.forHttp('/health/live', HTTP_PORT).forStatusCode(204))
          .withStartupTimeout(180_000)
          .start();
        stop = () => container.stop();
        connectionString = `esdb://${container.getHost()}:${container.getMappedPort(HTTP_PORT)}?tls=false`;
      }, 240_000);

      afterAll(async () => {
        await stop?.();
      });

      describeEventStoreContract(`EventStoreDB (${IMAGE})`, () => openEsdbEventStore({ connectionString }));
    });
  } else {
    console.warn(
      `EventStoreDB contract SKIPPED: EVENTSTORE_URL is not set and testcontainers found no Docker runtime or failed to load (${runtime.reason}). ` +
        'Set EVENTSTORE_URL=esdb://127.0.0.1:2113?tls=false or run on a host with Docker to test the EventStoreDB adapter.',
    );
    it.skip('SKIPPED: EventStoreDB contract — no EVENTSTORE_URL and no Docker runtime on this machine', () =>
      undefined);
  }
}
