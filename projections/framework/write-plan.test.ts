import type { RecordedEvent } from '../../contracts/events/envelope';
import { defineProjection, type ReadModelWrite } from './projection';
import { planBatch } from './write-plan';

const event = (position: number, type: string, data: Record<string, unknown> = {}): RecordedEvent => ({
  id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
  streamId: 'thing-1',
  revision: position,
  position,
  type,
  schemaVersion: 1,
  data,
  metadata: {
    tenantId: 1,
    actor: 'user:1',
    ip: null,
    method: null,
    url: null,
    body: null,
    requestId: null,
    correlationId: 'c',
    causationId: null,
    time: '2026-01-01T00:00:00.000Z',
  },
  recordedAt: '2026-01-01T00:00:00.000Z',
});

const projection = defineProjection<'rows' | 'docs'>({
  name: 'test',
  collections: { rows: 'rows', docs: 'docs' },
  project: (e): ReadModelWrite<'rows' | 'docs'>[] => {
    switch (e.type) {
      case 'Row':
        return [{ kind: 'insert', collection: 'rows', id: `r${e.position}`, doc: { n: e.position } }];
      case 'Set':
        return [{ kind: 'set', collection: 'docs', id: 1, fields: e.data as Record<string, unknown> }];
      case 'Sweep':
        return [{ kind: 'delete', collection: 'rows', filter: {} }];
      default:
        return [];
    }
  },
});

describe('planBatch', () => {
  it('merges assignments to one document in event order, guarded by the last position', () => {
    const [segment] = planBatch(projection, [
      event(1, 'Set', { a: 1, b: 1 }),
      event(2, 'Set', { b: 2 }),
      event(3, 'Row'),
    ]);
    expect([...(segment?.sets.get('docs')?.values() ?? [])]).toEqual([
      { id: 1, position: 2, fields: { a: 1, b: 2 } },
    ]);
    expect(segment?.rows.get('rows')).toEqual([{ id: 'r3', position: 3, doc: { n: 3 } }]);
  });

  it('ends a segment at a sweep, so nothing is merged across it', () => {
    const segments = planBatch(projection, [
      event(1, 'Set', { a: 1 }),
      event(2, 'Sweep'),
      event(3, 'Set', { b: 3 }),
    ]);
    expect(segments).toHaveLength(2);
    expect(segments[0]?.sweep).toMatchObject({ kind: 'delete', position: 2 });
    expect([...(segments[1]?.sets.get('docs')?.values() ?? [])]).toEqual([
      { id: 1, position: 3, fields: { b: 3 } },
    ]);
  });

  it('refuses a projection that assigns the framework fields', () => {
    expect(() => planBatch(projection, [event(1, 'Set', { position: 9 })])).toThrow(/position/);
  });
});
