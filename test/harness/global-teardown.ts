import { rmSync } from 'node:fs';
import type { StartedTestContainer } from 'testcontainers';

/** Stops the containers the global setup started; local servers stay up for the next run (they are reused). */
export default async function globalTeardown(): Promise<void> {
  const containers =
    (globalThis as { __ledgerwiseContainers?: StartedTestContainer[] }).__ledgerwiseContainers ?? [];
  await Promise.all(containers.map((container) => container.stop()));
  const scratch = process.env.LEDGERWISE_TEST_SCRATCH;
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}
