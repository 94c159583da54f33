import { atom } from 'jotai';
import type { JobProgressNotice } from '../../../contracts/live';

/** A job's latest progress as the live socket reported it. */
export type JobProgress = Omit<JobProgressNotice, 'type'>;

/**
 * Job progress by job id, in the client-state store: it resets with the store on logout and tenant
 * switch, when the jobs it shows are no longer the user's concern.
 */
export const jobProgressAtom = atom<Readonly<Record<number, JobProgress>>>({});

/** Keeps the newest report of each job; notices can arrive out of order after a reconnect. */
export const withJobProgress = (
  current: Readonly<Record<number, JobProgress>>,
  notice: JobProgressNotice,
): Readonly<Record<number, JobProgress>> => {
  const known = current[notice.jobId];
  if (known && known.position > notice.position) return current;
  const { type: _type, ...progress } = notice;
  return { ...current, [notice.jobId]: progress };
};

export const isFinished = (status: JobProgress['status']): boolean =>
  status === 'completed' || status === 'failed' || status === 'cancelled';
