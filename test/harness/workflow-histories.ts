import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';

/**
 * Recorded workflow histories (test/workflows/histories/<workflow>-<case>.json), replayed against the
 * current workflow code by workflows/workflow-histories.test.ts so a change that breaks determinism
 * fails. They are written only when asked, by running the workflow tests with
 * LEDGERWISE_RECORD_HISTORIES=1 (README, "Workflow tests"); otherwise the committed ones stay as they are.
 */
export const historiesFolder = join(__dirname, '..', 'workflows', 'histories');

export const recordingHistories = process.env.LEDGERWISE_RECORD_HISTORIES === '1';

/** Saves the finished run's history as `<name>.json` when recording. */
export const keepHistory = async (handle: WorkflowHandle, name: string): Promise<void> => {
  if (!recordingHistories) return;
  const history = await handle.fetchHistory();
  const pretty = JSON.stringify(JSON.parse(historyToJSON(history)), null, 2);
  writeFileSync(join(historiesFolder, `${name}.json`), `${pretty}\n`);
};
