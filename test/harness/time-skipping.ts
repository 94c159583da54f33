import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Connection, WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { cacheRoot } from '../../deploy/local/paths';
import { requireTool, runStep, withLock } from '../../deploy/local/shell';

/**
 * Temporal's time-skipping test server (docs/adr/0023-workflow-tests-and-replay.md). The SDK
 * downloads a native build of it from Temporal's own site, which this project's machines cannot
 * reach; the same server is published on Maven Central as a Java library, so it is fetched from
 * there once into the per-user cache and started with a launcher script, one server per test file.
 */
const TEST_SERVER_VERSION = '1.38.0';
const serverHome = () => join(cacheRoot(), `temporal-test-server-${TEST_SERVER_VERSION}`);
const launcherPath = () => join(serverHome(), 'bin', 'temporal-test-server');

const pom = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.ledgerwise</groupId>
  <artifactId>temporal-test-server-classpath</artifactId>
  <version>1</version>
  <dependencies>
    <dependency>
      <groupId>io.temporal</groupId>
      <artifactId>temporal-test-server</artifactId>
      <version>${TEST_SERVER_VERSION}</version>
    </dependency>
  </dependencies>
</project>
`;

// The server takes its port as its only argument. A quick-starting JVM: the server
// is small and lives for one test file.
const launcher = (lib: string) => `#!/bin/sh
exec java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto -cp '${lib}/*' io.temporal.testserver.TestServer "$@"
`;

/** Fetches the test server's jars and writes its launcher, once per machine (about 40 s). */
const provisionTestServer = async (): Promise<string> => {
  if (existsSync(launcherPath())) return launcherPath();
  await requireTool('java', 'Install a Java 17 runtime (the openjdk-17-jre-headless package) and retry.');
  await requireTool('mvn', 'Install Maven (the maven package) and retry.');
  mkdirSync(cacheRoot(), { recursive: true });
  return withLock(`${serverHome()}.lock`, async () => {
    if (existsSync(launcherPath())) return launcherPath();
    // Built beside the final folder and renamed into place, so a killed fetch leaves nothing half done.
    const staging = `${serverHome()}.staging`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(join(staging, 'bin'), { recursive: true });
    writeFileSync(join(staging, 'pom.xml'), pom);
    process.stdout.write(
      `Fetching Temporal's test server ${TEST_SERVER_VERSION} from Maven Central (once)...\n`,
    );
    await runStep(
      'mvn',
      ['-q', '-B', '-f', join(staging, 'pom.xml'), 'dependency:copy-dependencies', '-DincludeScope=runtime'],
      { label: 'temporal test server fetch' },
    );
    renameSync(join(staging, 'target', 'dependency'), join(staging, 'lib'));
    rmSync(join(staging, 'target'), { recursive: true, force: true });
    writeFileSync(join(staging, 'bin', 'temporal-test-server'), launcher(join(serverHome(), 'lib')), {
      mode: 0o755,
    });
    renameSync(staging, serverHome());
    return launcherPath();
  });
};

type ServerProcess = { address: string; stop: () => Promise<void> };

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

/**
 * Starts the test server and waits until it answers. The SDK's own start gives a server 5 s, less than
 * a JVM may take on a busy 2-core machine, so the server is started here with a minute to come up.
 */
const startTestServer = async (launcher: string): Promise<ServerProcess> => {
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const child = spawn(launcher, [String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Temporal's test server exited at start:\n${output}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return { address, stop };
      } finally {
        await connection.close();
      }
    } catch (error) {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(
          `Temporal's test server did not answer on ${address} within a minute: ${String(error)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
};

/** The SDK's environment over a server this helper started, with time skipping on. */
class JavaTestServerEnvironment extends TestWorkflowEnvironment {
  serverProcess: ServerProcess | undefined;

  override async teardown(): Promise<void> {
    await super.teardown();
    await this.serverProcess?.stop();
  }
}

// TestWorkflowEnvironment's general factory: public for JavaScript, private in its types. It builds the
// time-skipping client and connections over a server at a given address, as createTimeSkipping does
// over the server it starts itself.
const createEnvironment = (
  TestWorkflowEnvironment as unknown as {
    create: (options: {
      server: { type: 'existing' };
      address: string;
      namespace: string;
      supportsTimeSkipping: true;
    }) => Promise<TestWorkflowEnvironment>;
  }
).create;

/**
 * A Temporal environment of its own for one test file, whose clock jumps to the next timer, retry or
 * timeout whenever a workflow result is awaited: retry backoffs of minutes take milliseconds. While an
 * activity runs, the clock runs at its real pace (a heartbeat timeout takes its real time). Tear it
 * down in afterAll.
 */
export const timeSkippingEnvironment = async (): Promise<TestWorkflowEnvironment> => {
  const server = await startTestServer(await provisionTestServer());
  try {
    const env = (await createEnvironment.call(JavaTestServerEnvironment, {
      server: { type: 'existing' },
      address: server.address,
      namespace: 'default',
      supportsTimeSkipping: true,
    })) as JavaTestServerEnvironment;
    env.serverProcess = server;
    return env;
  } catch (error) {
    await server.stop();
    throw error;
  }
};

/**
 * Activities for a test worker that call the current test's mocks by name (the worker outlives each
 * test). Errors lose their stack: it would only show jest's frames, in every warning the SDK logs for a
 * failed attempt and in the recorded histories.
 */
export const activitiesCalling = <N extends string>(mocks: () => Record<N, jest.Mock>, names: readonly N[]) =>
  Object.fromEntries(
    names.map((name) => [
      name,
      async (...args: unknown[]): Promise<unknown> => {
        try {
          return (await mocks()[name](...args)) as unknown;
        } catch (error) {
          if (error instanceof Error) error.stack = `${error.name}: ${error.message}`;
          throw error;
        }
      },
    ]),
  );

/** A worker of a time-skipping test file: its queue, its workflow code and its (mocked) activities. */
export type TestWorker = { taskQueue: string; workflowsPath: string; activities: object };

/**
 * For one test file: a time-skipping environment with these workers running on it, created in
 * beforeAll (bundling the workflow code takes seconds, so once per file; the activities call the
 * current test's mocks) and stopped in afterAll. Returns the environment, set once beforeAll has run.
 */
export const useTimeSkippingWorkers = (workers: readonly TestWorker[]): (() => TestWorkflowEnvironment) => {
  let env: TestWorkflowEnvironment | undefined;
  const started: Worker[] = [];
  let running: Promise<void[]> | undefined;
  beforeAll(async () => {
    env = await timeSkippingEnvironment();
    // One after the other: each bundles its workflow code, which is heavy on a 2-core machine.
    for (const worker of workers)
      started.push(await Worker.create({ connection: env.nativeConnection, ...worker }));
    running = Promise.all(started.map((worker) => worker.run()));
  }, 180_000);
  afterAll(async () => {
    for (const worker of started) worker.shutdown();
    await running;
    await env?.teardown();
  });
  return () => {
    if (!env) throw new Error('The time-skipping environment starts in beforeAll.');
    return env;
  };
};

/** The error a workflow failed with, as the client sees it. */
export const failureOf = async (result: Promise<unknown>): Promise<Error | undefined> => {
  const error = await result.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof WorkflowFailedError))
    throw new Error(`expected the workflow to fail, got ${String(error)}`);
  return error.cause;
};

/**
 * A refusal as the command layer throws it (system-commands.ts), but left retryable: only the
 * workflow's own list of refusals may stop its retries.
 */
export const refusal = (code: string, message: string): ApplicationFailure =>
  ApplicationFailure.retryable(message, `AppError:${code}`);
