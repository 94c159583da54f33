import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { cacheRoot } from '../../deploy/local/paths';
import { requireTool, runStep, withLock } from '../../deploy/local/shell';

/**
 * Temporal's time-skipping test server (docs/adr/0020-workflow-tests-time-skipping.md). The SDK
 * downloads a native build of it from Temporal's own site, which this project's machines cannot
 * reach; the same server is published on Maven Central as a Java library, so it is fetched from
 * there once into the per-user cache and started with a launcher script the SDK runs as its binary.
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

// The SDK runs the executable with the port as its only argument. A quick-starting JVM: the server
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

/**
 * A Temporal environment of its own for one test file, whose clock jumps to the next timer, retry or
 * timeout whenever a workflow result is awaited: retry backoffs and heartbeat timeouts of minutes
 * take milliseconds. Tear it down in afterAll.
 */
export const timeSkippingEnvironment = async (): Promise<TestWorkflowEnvironment> =>
  TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: await provisionTestServer() } },
  });
