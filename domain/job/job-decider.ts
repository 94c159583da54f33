import type { JobEvent } from '../../contracts/events/job';
import type { Decider } from '../decider';
import { decideJob, type JobCommand } from './decide';
import { evolveJob, initialJobState, type JobState } from './job';

export const jobDecider: Decider<JobState, JobCommand, JobEvent> = {
  decide: decideJob,
  evolve: evolveJob,
  initialState: initialJobState,
};
