import { readFileSync } from 'node:fs';
import { Worker } from '@temporalio/worker';
import { recordedHistories } from '../harness/workflow-histories';

/**
 * Replays every recorded history (test/workflows/histories) against the current workflow code: a
 * change that would make a running workflow take another path on replay (an activity added, removed
 * or reordered, a timer or child changed) fails here instead of in production. When the change is
 * meant, re-record the histories as the README says ("Workflow tests") and commit them with it.
 */

/** The module of each workflow type; every exported workflow must appear here with a history. */
const workflowModules = {
  syncSellerWorkflow: '../../workflows/sync/workflows',
  generateMetricsWorkflow: '../../workflows/metrics/workflows',
  customerMetricsWorkflow: '../../workflows/metrics/workflows',
  forecastJobWorkflow: '../../workflows/forecast/workflows',
  pingWorkflow: '../../workflows/system/workflows',
  reportJobWorkflow: '../../workflows/reports/workflows',
  scheduledReportsWorkflow: '../../workflows/reports/workflows',
  clientPerformanceWorkflow: '../../workflows/reports/workflows',
  liveReportsWorkflow: '../../workflows/integrations/cloud/workflows',
} as const;
type WorkflowType = keyof typeof workflowModules;

const histories = recordedHistories().map(({ workflowId, history }) => {
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  return { workflowId, history, workflowType: started?.workflowType?.name ?? '' };
});

/** The workflow functions a module exports, read from its source (importing it needs the sandbox). */
const exportedWorkflows = (module: string) =>
  [...readFileSync(`${require.resolve(module)}`, 'utf8').matchAll(/export async function (\w+)\(/g)].map(
    (match) => match[1],
  );

describe('recorded workflow histories', () => {
  it('cover every workflow, each with at least one history', () => {
    const modules = [...new Set(Object.values(workflowModules))];
    const exported = modules.flatMap(exportedWorkflows).sort();
    expect(exported).toEqual(Object.keys(workflowModules).sort());
    for (const type of exported)
      expect(histories.filter((h) => h.workflowType === type).map((h) => h.workflowId)).not.toEqual([]);
    // A history of a type missing above would be replayed by no test.
    expect(histories.filter((h) => !(h.workflowType in workflowModules)).map((h) => h.workflowId)).toEqual(
      [],
    );
  });

  it.each([...new Set(Object.values(workflowModules))])(
    'replay against %s without a determinism error',
    async (module) => {
      const types = Object.keys(workflowModules).filter(
        (type) => workflowModules[type as WorkflowType] === module,
      );
      const ofModule = histories.filter((h) => types.includes(h.workflowType));
      const failures: string[] = [];
      const replays = Worker.runReplayHistories(
        { workflowsPath: require.resolve(module), replayName: `histories of ${module}` },
        ofModule.map(({ workflowId, history }) => ({ workflowId, history })),
      );
      let replayed = 0;
      for await (const result of replays) {
        replayed += 1;
        if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
      }
      expect(replayed).toBe(ofModule.length);
      expect(failures).toEqual([]);
    },
  );
});
