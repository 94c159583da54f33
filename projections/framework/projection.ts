import type { RecordedEvent } from '../../contracts/events/envelope';
import type { ReadAllFilter } from '../../commands/event-store/event-store';
import type { DeclaredIndex } from '../read-store/declared-indexes';

/** Fields of a read-model document; `_id` and `position` belong to the framework. */
export type DocumentFields = Record<string, unknown>;

/**
 * What a projection asks the framework to write for one event. Every kind is idempotent, so an event
 * delivered twice (at-least-once delivery, a crash before the checkpoint) changes nothing:
 * - `insert`: an append-only row with an id derived from the event (e.g. `${streamId}@${revision}`);
 *   a second delivery finds the row and leaves it.
 * - `set`: field assignments on one document, applied only if the document has not yet seen this
 *   event's position. Assignments only: there is no increment, because a counter cannot tell a
 *   redelivery from a new event.
 * - `update`: field assignments on every matching document written up to this event, its own
 *   earlier writes included (erasing personal data from rows, for example).
 * - `delete`: removes the matching documents written up to this event (never later ones).
 */
export type ReadModelWrite<C extends string> =
  | { kind: 'insert'; collection: C; id: string; doc: DocumentFields }
  | { kind: 'set'; collection: C; id: string | number; fields: DocumentFields }
  | { kind: 'update'; collection: C; filter: DocumentFields; fields: DocumentFields }
  | { kind: 'delete'; collection: C; filter: DocumentFields };

/** A declared index; `counted` and `search` are the read store's (projections/read-store/declared-indexes.ts). */
export type IndexSpec = DeclaredIndex;

export type Projection<C extends string = string> = {
  /** Stable name: checkpoints, the version pointer and the CLI use it. */
  name: string;
  /** Base collection names by key; version n of the read model lives in `<base>_v<n>`. */
  collections: Record<C, string>;
  indexes?: Partial<Record<C, readonly IndexSpec[]>>;
  /** Only these events are read; omit for every event. */
  filter?: ReadAllFilter;
  /**
   * Pure: the same event always gives the same writes, with no clock and no randomness, so a rebuild
   * reproduces exactly what live processing wrote.
   */
  project: (event: RecordedEvent) => ReadModelWrite<C>[];
};

/** Identity with inference of the collection keys, so `project` can only name declared collections. */
export const defineProjection = <C extends string>(projection: Projection<C>): Projection<C> => projection;

/** The physical collection of one version of a read model. */
export const versionedCollectionName = (base: string, version: number): string => `${base}_v${version}`;

/** The field every read-model document carries: the position of the last event that wrote it. */
export const POSITION_FIELD = 'position';
