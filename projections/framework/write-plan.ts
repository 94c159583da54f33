import type { RecordedEvent } from '../../contracts/events/envelope';
import { POSITION_FIELD, type DocumentFields, type Projection } from './projection';

export type PlannedRow = { id: string; position: number; doc: DocumentFields };
export type PlannedSet = { id: string | number; position: number; fields: DocumentFields };
/** A write over many documents (`update` or `delete`), limited to documents written up to its event. */
export type PlannedSweep = {
  kind: 'update' | 'delete';
  collection: string;
  position: number;
  filter: DocumentFields;
  fields?: DocumentFields;
};

/**
 * Writes that may run together (collections in parallel, each collection's writes in any order),
 * then one sweep. A sweep ends a segment: it must see the rows written before it, and assignments
 * are never merged across it.
 */
export type Segment = {
  rows: Map<string, PlannedRow[]>;
  sets: Map<string, Map<string, PlannedSet>>;
  sweep?: PlannedSweep;
};

const emptySegment = (): Segment => ({ rows: new Map(), sets: new Map() });

const reservedField = (fields: DocumentFields): string | undefined =>
  ['_id', POSITION_FIELD].find((name) => name in fields);

/**
 * Turns a batch of events into segments of writes. Assignments to the same document within a segment
 * are merged in event order into one write guarded by the last event's position: if the document
 * already saw that position the whole write is skipped, and if it saw an earlier one, re-applying
 * the merged assignments yields the same state as applying only the missing events.
 */
export const planBatch = <C extends string>(
  projection: Projection<C>,
  events: readonly RecordedEvent[],
): Segment[] => {
  const segments: Segment[] = [];
  let current = emptySegment();
  for (const event of events) {
    for (const write of projection.project(event)) {
      const position = event.position;
      switch (write.kind) {
        case 'insert': {
          const rows = current.rows.get(write.collection) ?? [];
          rows.push({ id: write.id, position, doc: write.doc });
          current.rows.set(write.collection, rows);
          break;
        }
        case 'set': {
          const reserved = reservedField(write.fields);
          if (reserved) throw new Error(`${projection.name}: a set may not assign ${reserved}`);
          const sets = current.sets.get(write.collection) ?? new Map<string, PlannedSet>();
          const key = JSON.stringify(write.id);
          const previous = sets.get(key);
          sets.set(key, {
            id: write.id,
            position,
            fields: previous ? { ...previous.fields, ...write.fields } : write.fields,
          });
          current.sets.set(write.collection, sets);
          break;
        }
        case 'update':
        case 'delete': {
          const reserved = reservedField(write.kind === 'update' ? write.fields : {});
          if (reserved) throw new Error(`${projection.name}: an update may not assign ${reserved}`);
          const { kind, collection, filter } = write;
          const fields = write.kind === 'update' ? write.fields : undefined;
          current.sweep = { kind, collection, position, filter, fields };
          segments.push(current);
          current = emptySegment();
          break;
        }
      }
    }
  }
  if (current.rows.size > 0 || current.sets.size > 0) segments.push(current);
  return segments;
};
