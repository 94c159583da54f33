import type { Db } from 'mongodb';
import { categoryOf } from '../../commands/event-store/event-store';
import type { RecordedEvent } from '../../contracts/events/envelope';
import type { Projection } from '../framework/projection';
import { projectionPositions } from '../framework/read-your-writes';

/** The read models that read an event: those whose filter lets it through (no filter: every event). */
export const projectionsReading = (projections: readonly Projection[], event: RecordedEvent): Projection[] =>
  projections.filter(({ filter }) => {
    if (filter?.categories && !filter.categories.includes(categoryOf(event.streamId))) return false;
    if (filter?.eventTypes && !filter.eventTypes.includes(event.type)) return false;
    return true;
  });

/**
 * Waits until every read model that reads an event has checkpointed past it. Checkpoints only move
 * forward, so the last one seen answers for later events too: a burst of events costs one poll.
 * Returns the read models that had not reached the event in time. One that missed its time (a stopped
 * projector) is then only looked at, not waited for, until it catches up, so the notices of other
 * read models do not queue behind it.
 */
export const readModelWaiter = (db: Db, projections: readonly Projection[], timeoutMs: number) => {
  const positions = projectionPositions(db);
  const seen = new Map<string, number>();
  const lagging = new Set<string>();

  const reach = async (name: string, position: number): Promise<boolean> => {
    if ((seen.get(name) ?? -1) >= position) return true;
    const wait = await positions.waitForPosition(name, position, lagging.has(name) ? 0 : timeoutMs);
    seen.set(name, wait.position);
    if (wait.reached) lagging.delete(name);
    else lagging.add(name);
    return wait.reached;
  };

  return async (event: RecordedEvent): Promise<string[]> => {
    const names = projectionsReading(projections, event).map((projection) => projection.name);
    const reached = await Promise.all(names.map((name) => reach(name, event.position)));
    return names.filter((_name, i) => !reached[i]);
  };
};
