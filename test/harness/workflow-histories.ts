import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { historyFromJSON, historyToJSON } from '@temporalio/common/lib/proto-utils';
import type * as proto from '@temporalio/proto';

/**
 * Recorded workflow histories (test/workflows/histories/<workflow>-<case>.json), replayed against the
 * current workflow code by test/workflows/workflow-histories.test.ts so a change that breaks
 * determinism fails. They are written only when asked, by running the workflow tests with
 * LEDGERWISE_RECORD_HISTORIES=1 (README, "Workflow tests"); otherwise the committed ones stay as they are.
 */
export const historiesFolder = join(__dirname, '..', 'workflows', 'histories');

export const recordingHistories = process.env.LEDGERWISE_RECORD_HISTORIES === '1';

type History = proto.temporal.api.history.v1.IHistory;

// The files are in Temporal's JSON form of a history (as the CLI and the UI export it), read and
// written with the SDK's own converters.

/**
 * Saves the finished run's history as `<workflow id>.json` when recording. Replay needs the id the run
 * had (SyncSeller names its metrics child after it), so a recorded run's id is its history's name.
 */
export const keepHistory = async (handle: WorkflowHandle): Promise<void> => {
  if (!recordingHistories) return;
  const history = await handle.fetchHistory();
  const json = JSON.parse(historyToJSON(history)) as unknown;
  writeFileSync(join(historiesFolder, `${handle.workflowId}.json`), `${JSON.stringify(json, null, 2)}\n`);
};

/** Every recorded history with the workflow id of its run (its file name without .json). */
export const recordedHistories = (): { workflowId: string; history: History }[] =>
  readdirSync(historiesFolder)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const history = historyFromJSON(JSON.parse(readFileSync(join(historiesFolder, file), 'utf8')));
      return { workflowId: file.replace(/\.json$/, ''), history };
    });
