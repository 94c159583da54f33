import type { RecordedEvent } from '../contracts/events/envelope';
import { AppError } from '../contracts/errors';
import type { StreamCategory } from '../contracts/stream-ids';
import type { Decider, DomainEvent } from '../domain/decider';
import { billingDecider } from '../domain/billing/billing-decider';
import { integrationDecider } from '../domain/integration/integration-decider';
import { inviteDecider } from '../domain/invite/invite-decider';
import { jobDecider } from '../domain/job/job-decider';
import { partnerDecider } from '../domain/partner/partner-decider';
import { planDecider } from '../domain/plan/plan-decider';
import { recipientDecider } from '../domain/recipient/recipient-decider';
import { sellerDecider } from '../domain/seller/seller-decider';
import { tenantDecider } from '../domain/tenant/tenant-decider';
import { userDecider } from '../domain/user/user-decider';
import { categoryOf, type EventStore } from './event-store/event-store';

type Folder = Pick<Decider<unknown, never, DomainEvent>, 'evolve' | 'initialState'>;
const asFolder = <S, C, E extends DomainEvent>(decider: Decider<S, C, E>): Folder =>
  decider as unknown as Folder;

/** The aggregate behind each stream category (every one of them), for replaying its state event by event. */
const folders: Record<string, Folder> = {
  tenant: asFolder(tenantDecider),
  user: asFolder(userDecider),
  invite: asFolder(inviteDecider),
  seller: asFolder(sellerDecider),
  integration: asFolder(integrationDecider),
  recipient: asFolder(recipientDecider),
  billing: asFolder(billingDecider),
  partner: asFolder(partnerDecider),
  plan: asFolder(planDecider),
  job: asFolder(jobDecider),
} satisfies Record<StreamCategory, Folder>;

export const replayableCategories = Object.keys(folders);

/** One step of a stream's history: the event with its metadata and the aggregate's state after it. */
export type HistoryStep = { event: RecordedEvent; stateAfter: unknown };

export type HistoryPage = {
  streamId: string;
  steps: HistoryStep[];
  /** The revision to ask for next, or null at the end of the stream. */
  nextRevision: number | null;
};

export const maxHistoryPage = 1000;

/**
 * An admin's step-by-step replay of any aggregate stream (a tenant's, a seller's, a user's...). The state
 * after each event is folded from the start of the stream, so a later page shows the true state, and
 * events are read decrypted (erased personal data shows as erased) and upcast, as the code sees them now.
 */
export const streamHistory = async (
  source: { store: EventStore; decode: (events: readonly RecordedEvent[]) => Promise<RecordedEvent[]> },
  streamId: string,
  page: { fromRevision?: number; maxCount?: number } = {},
): Promise<HistoryPage> => {
  const folder = folders[categoryOf(streamId)];
  if (!folder || !/^[a-z]+-[\w-]+$/.test(streamId)) {
    throw new AppError('not_found', `There is no aggregate history for ${streamId}.`);
  }
  const fromRevision = Math.max(0, page.fromRevision ?? 0);
  const maxCount = Math.min(maxHistoryPage, Math.max(1, page.maxCount ?? maxHistoryPage));
  // One extra event tells whether another page follows.
  const recorded = await source.store.readStream(streamId, { maxCount: fromRevision + maxCount + 1 });
  if (recorded.length === 0)
    throw new AppError('not_found', `There is no aggregate history for ${streamId}.`);
  const events = await source.decode(recorded.slice(0, fromRevision + maxCount));

  let state = folder.initialState();
  const steps: HistoryStep[] = [];
  for (const event of events) {
    state = folder.evolve(state, { type: event.type, data: event.data });
    if (event.revision >= fromRevision) steps.push({ event, stateAfter: state });
  }
  const hasMore = recorded.length > fromRevision + maxCount;
  return { streamId, steps, nextRevision: hasMore ? fromRevision + maxCount : null };
};
