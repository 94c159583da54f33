import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import * as proto from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root';

/**
 * Recorded workflow histories (test/workflows/histories/<workflow>-<case>.json), replayed against the
 * current workflow code by test/workflows/workflow-histories.test.ts so a change that breaks
 * determinism fails. They are written only when asked, by running the workflow tests with
 * LEDGERWISE_RECORD_HISTORIES=1 (README, "Workflow tests"); otherwise the committed ones stay as they are.
 */
export const historiesFolder = join(__dirname, '..', 'workflows', 'histories');

export const recordingHistories = process.env.LEDGERWISE_RECORD_HISTORIES === '1';

type History = proto.temporal.api.history.v1.IHistory;

// The files are in Temporal's JSON form of a history (as the CLI and the UI export it). The SDK's own
// converters (historyToJSON, historyFromJSON of @temporalio/common) fail in this install with "type
// must be a Type": @temporalio/common and @temporalio/proto each carry their own copy of protobufjs, and
// the history type of one is no Type to the other. So the conversion uses @temporalio/proto's copy.
type ProtoJson = {
  toJson: (type: unknown, message: unknown) => unknown;
  fromJson: (type: unknown, json: unknown, options: { ignoreUnknownFields: boolean }) => History | null;
};
const { toJson, fromJson } = createRequire(require.resolve('@temporalio/proto'))(
  'protobufjs/ext/protojson',
) as ProtoJson;
const historyType = (
  patchProtobufRoot(proto) as unknown as { lookupType: (name: string) => unknown }
).lookupType('temporal.api.history.v1.History');

/**
 * Saves the finished run's history as `<workflow id>.json` when recording. Replay needs the id the run
 * had (SyncSeller names its metrics child after it), so a recorded run's id is its history's name.
 */
export const keepHistory = async (handle: WorkflowHandle): Promise<void> => {
  if (!recordingHistories) return;
  const history = await handle.fetchHistory();
  const json = toJson(historyType, proto.temporal.api.history.v1.History.fromObject(history));
  writeFileSync(join(historiesFolder, `${handle.workflowId}.json`), `${JSON.stringify(json, null, 2)}\n`);
};

/** Every recorded history with the workflow id of its run (its file name without .json). */
export const recordedHistories = (): { workflowId: string; history: History }[] =>
  readdirSync(historiesFolder)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const history = fromJson(historyType, JSON.parse(readFileSync(join(historiesFolder, file), 'utf8')), {
        ignoreUnknownFields: true,
      });
      if (!history) throw new Error(`${file} is not a workflow history`);
      return { workflowId: file.replace(/\.json$/, ''), history };
    });
