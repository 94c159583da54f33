import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { infraUp } from '../../deploy/local/infra-cli';
import { servers } from '../../deploy/local/servers';
import { dockerAnswers, startContainers, variableOf } from './server-sources';
import { testReadStore } from './isolation';

/**
 * Jest global setup of the integration project: makes sure every real server is reachable before any
 * test file runs. Variables set here are inherited by the test workers.
 */
export default async function globalSetup(): Promise<void> {
  const fromEnvironment = servers.filter((s) => process.env[variableOf[s.name] ?? ''] !== undefined);
  const needed = servers.filter((s) => !fromEnvironment.includes(s)).map((s) => s.name);
  const sources: string[] = fromEnvironment.map((s) => `${s.name}=environment`);

  if (needed.length > 0) {
    if (await dockerAnswers()) {
      const containers = await startContainers(needed);
      (globalThis as { __ledgerwiseContainers?: unknown }).__ledgerwiseContainers = containers;
      sources.push(...needed.map((name) => `${name}=container`));
    } else {
      await infraUp(needed);
      sources.push(...needed.map((name) => `${name}=local`));
    }
  }
  process.env.LEDGERWISE_TEST_SERVERS = sources.join(',');
  // The embedded read stores of this run's test files, removed by the global teardown.
  process.env.LEDGERWISE_TEST_SCRATCH = mkdtempSync(join(tmpdir(), 'ledgerwise-tests-'));
  process.stdout.write(`\nIntegration servers: ${sources.join(', ')}; read store: ${testReadStore()}\n`);
}
