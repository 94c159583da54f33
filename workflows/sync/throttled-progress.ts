import { jobDecider } from '../../domain/job/job-decider';
import { minProgressIntervalMs } from '../../domain/job/decide';
import { runSystemCommand, type SystemCommandContext } from './system-commands';
import { jobStream } from '../../contracts/stream-ids';

type Progress = { stage: string; done: number; total: number | null };

/**
 * Job progress at most about once a second (architecture.md, workflows), and always the last step of
 * a stage. Skipping here saves the event store a read per page; the job decider enforces it anyway.
 */
export const throttledProgress = (
  context: SystemCommandContext,
  options: { jobId: number; now: () => Date },
) => {
  let lastAt = 0;
  return {
    record: async (progress: Progress) => {
      const now = options.now();
      const last = progress.done === progress.total;
      if (!last && now.getTime() - lastAt < minProgressIntervalMs) return;
      lastAt = now.getTime();
      await runSystemCommand(context, jobDecider, {
        streamId: jobStream(options.jobId),
        step: `progress:${progress.stage}:${progress.done}`,
        command: { type: 'RecordJobProgress', now, data: progress },
      });
    },
  };
};
