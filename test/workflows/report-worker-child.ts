/**
 * The reports worker (real renderers, archive and mailer) in a process of its own, so a test can
 * SIGKILL it in the middle of a report job. Usage: node --import tsx report-worker-child.ts
 * [stall-after-second-email | batch-stall-after-second-email] (configuration from the environment).
 * That mode records the second email the mail server accepted, says `emailed-twice`, and then never
 * lets its activity finish: the test kills the process at that exact point, the worst moment for a
 * duplicate, since Temporal will run that send (or the scheduled send's whole batch) again on the next
 * worker. The batch mode puts every seller of a scheduled send in one batch.
 */
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { openEventSource } from '../../commands/open-event-source';
import { loadConfig } from '../../contracts/config';
import { openReadStore } from '../../projections/read-store/open-read-store';
import { createMailer } from '../../workflows/email/smtp-mailer';
import { createReportObjectStore } from '../../workflows/reports/archive/report-archive';
import { createReportParts } from '../../workflows/reports/report-parts';
import { createReportsWorker } from '../../workflows/reports/worker';
import '../harness/quiet-temporal';

const main = async () => {
  const config = loadConfig(process.env);
  const { db } = await openReadStore(config);
  const events = await openEventSource(config);
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const client = new Client({
    connection: await Connection.connect({ address: config.TEMPORAL_ADDRESS }),
    namespace: config.TEMPORAL_NAMESPACE,
  });
  const mailer = createMailer(config);
  const now = () => new Date();
  const deps = { db, writeSide: events.writeSide, now };
  const parts = createReportParts({ ...deps, objects: createReportObjectStore(config), mailer });
  let recorded = 0;
  const stalling: typeof parts = {
    ...parts,
    recordEmailed: async (input) => {
      await parts.recordEmailed(input);
      recorded += 1;
      if (recorded < 2) return;
      process.stdout.write('emailed-twice\n');
      await new Promise(() => undefined);
    },
  };
  const mode = process.argv[2];
  const worker = await createReportsWorker({
    connection,
    config,
    client,
    deps: { ...deps, config, parts: mode?.endsWith('stall-after-second-email') ? stalling : parts },
    ...(mode === 'batch-stall-after-second-email' ? { scheduledBatching: { size: 10, lanes: 1 } } : {}),
  });
  process.stdout.write('ready\n');
  await worker.run();
};

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
