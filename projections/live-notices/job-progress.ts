import type { EventStore } from '../../commands/event-store/event-store';
import type { RecordedEvent } from '../../contracts/events/envelope';
import { JobEvent } from '../../contracts/events/job';
import type { JobProgressNotice, JobStatus } from '../../contracts/live';
import { evolveJob, initialJobState, type JobState, type KnownJob } from '../../domain/job/job';
import { BoundedCache } from './bounded-cache';

type TrackedJob = { job: KnownJob; tenantId: number; sellerId: number | null; revision: number };

const statusOf: Record<KnownJob['status'], JobStatus> = {
  created: 'queued',
  running: 'running',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** Folds a job's events (as stored) into what its progress notice needs; null before JobCreated. */
const track = (previous: TrackedJob | null, event: RecordedEvent): TrackedJob | null => {
  const parsed = JobEvent.safeParse({ type: event.type, data: event.data });
  if (!parsed.success) return previous;
  const state: JobState = evolveJob(previous?.job ?? initialJobState(), parsed.data);
  if (state.status === 'none') return null;
  const created = parsed.data.type === 'JobCreated' ? parsed.data.data : null;
  const tenantId = created?.tenantId ?? previous?.tenantId;
  if (tenantId === undefined) return null;
  return {
    job: state,
    tenantId,
    sellerId: created ? created.sellerId : (previous?.sellerId ?? null),
    revision: event.revision,
  };
};

/**
 * Job progress notices from job events. The progress event names only the job, so the tenant, seller
 * and last stage come from the job's earlier events: remembered for recent jobs, read from the stream
 * for one the notifier has not seen (it started after the job did, or forgot it).
 */
export const jobProgressTracker = (store: EventStore, capacity = 1000) => {
  const jobs = new BoundedCache<string, TrackedJob>(capacity);

  const stateBefore = async (event: RecordedEvent): Promise<TrackedJob | null> => {
    const known = jobs.get(event.streamId);
    if (known && known.revision === event.revision - 1) return known;
    if (event.revision === 0) return null;
    const history = await store.readStream(event.streamId, { maxCount: event.revision });
    return history.reduce<TrackedJob | null>(track, null);
  };

  return async (event: RecordedEvent): Promise<JobProgressNotice | null> => {
    const tracked = track(await stateBefore(event), event);
    if (!tracked) return null;
    jobs.set(event.streamId, tracked);
    const { job } = tracked;
    return {
      type: 'job-progress',
      jobId: job.jobId,
      kind: job.kind,
      tenantId: tracked.tenantId,
      sellerId: tracked.sellerId,
      stage: job.progress?.stage ?? null,
      done: job.progress?.done ?? 0,
      total: job.progress?.total ?? null,
      status: statusOf[job.status],
      position: event.position,
    };
  };
};
