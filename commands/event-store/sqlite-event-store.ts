import { closeSync, fdatasync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { EventMetadata, RecordedEvent } from '../../contracts/events/envelope';
import {
  categoryOf,
  matchesFilter,
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type ReadAllFilter,
  type ReadAllOptions,
  type ReadStreamOptions,
  type SubscribeOptions,
  type Subscription,
} from './event-store';

/**
 * The embedded event store (docs/adr/0008-event-store.md): one SQLite file in WAL mode that
 * several processes (gateway, projector, worker) open at once. Writers serialise on SQLite's write
 * lock (BEGIN IMMEDIATE plus a busy timeout); subscribers in other processes notice commits by
 * polling `PRAGMA data_version`, which changes whenever another connection commits.
 */

export type SqliteEventStoreOptions = {
  /** The database file. Every process that shares the store opens the same path. */
  path: string;
  /** How long a writer waits for another process's write lock before failing. */
  busyTimeoutMs?: number;
  /** How often live subscribers check for commits by other processes. */
  pollIntervalMs?: number;
  /**
   * `full` syncs the WAL on every commit, on the event loop, so an acknowledged append survives a
   * power cut; `normal` syncs only at checkpoints (still never corrupts, but may lose the last commits
   * on power loss). `grouped` (the default, docs/adr/0052) commits as `normal` and then syncs the WAL
   * off the event loop, one sync for every append committed meanwhile: `append` still resolves only
   * once its events would survive a power cut, but other work runs during the sync and one sync
   * serves many appends. Readers may see an event a few milliseconds before it is durable.
   */
  synchronous?: 'full' | 'normal' | 'grouped';
};

const DEFAULTS = { busyTimeoutMs: 10_000, pollIntervalMs: 2, synchronous: 'grouped' } as const;

/** Rows read from the store per query while a subscription catches up. */
const CATCH_UP_BATCH = 500;

/** The store's own schema, one entry per `PRAGMA user_version`; append, never edit. */
const MIGRATIONS: readonly string[] = [
  `
  -- AUTOINCREMENT so a position is never reused after deleteStream removes the newest rows.
  CREATE TABLE events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    stream_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    event_id TEXT NOT NULL,
    category TEXT NOT NULL,
    type TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    data TEXT NOT NULL,
    metadata TEXT NOT NULL,
    recorded_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX events_by_stream ON events (stream_id, revision);
  CREATE INDEX events_by_id ON events (event_id);
  -- Only truncated streams have a row: reads of the stream skip revisions below truncate_before.
  CREATE TABLE truncated_streams (
    stream_id TEXT PRIMARY KEY,
    truncate_before INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  // The event-id index cost 30-50% of batch append throughput (random keys touch a page per event).
  // Retries with expected revision any/stream_exists now scan their stream instead; commands use exact.
  `DROP INDEX events_by_id;`,
];

type EventRow = {
  position: number;
  stream_id: string;
  revision: number;
  event_id: string;
  type: string;
  schema_version: number;
  data: string;
  metadata: string;
  recorded_at: number;
};

type AppendRequest = { streamId: string; events: readonly EventToAppend[]; expected: ExpectedRevision };

type StoredRef = { revision: number; event_id: string; position: number };

const EVENT_COLUMNS =
  'position, stream_id, revision, event_id, type, schema_version, data, metadata, recorded_at';

const toRecordedEvent = (row: EventRow): RecordedEvent => ({
  id: row.event_id,
  streamId: row.stream_id,
  revision: row.revision,
  position: row.position,
  type: row.type,
  schemaVersion: row.schema_version,
  data: JSON.parse(row.data) as unknown,
  metadata: JSON.parse(row.metadata) as EventMetadata,
  recordedAt: new Date(row.recorded_at).toISOString(),
});

/** The schema version this program writes (`PRAGMA user_version`). */
export const SCHEMA_VERSION = MIGRATIONS.length;

const migrate = (db: Database.Database): void => {
  db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > MIGRATIONS.length) {
      throw new Error(
        `Event store schema version ${version} is newer than this program knows (${MIGRATIONS.length}); upgrade the program`,
      );
    }
    for (const sql of MIGRATIONS.slice(version)) db.exec(sql);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
};

const assertValidExpected = (expected: ExpectedRevision): void => {
  if (expected.kind === 'exact' && (!Number.isInteger(expected.revision) || expected.revision < 0)) {
    throw new Error(`Expected revision must be a non-negative integer, got ${expected.revision}`);
  }
};

const matchesExpected = (expected: ExpectedRevision, last: number | null): boolean => {
  switch (expected.kind) {
    case 'no_stream':
      return last === null;
    case 'stream_exists':
      return last !== null;
    case 'any':
      return true;
    case 'exact':
      return last === expected.revision;
  }
};

/** The SQL condition and parameters of a category / event-type filter. */
const filterClause = (filter: ReadAllFilter | undefined): { sql: string; params: string[] } => {
  const parts: string[] = [];
  const params: string[] = [];
  if (filter?.categories) {
    parts.push('category IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(filter.categories));
  }
  if (filter?.eventTypes) {
    parts.push('type IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(filter.eventTypes));
  }
  return { sql: parts.map((p) => ` AND ${p}`).join(''), params };
};

/** The events one append of this connection added: consecutive positions `first` to `last`. */
type OwnAppend = { first: number; last: number; events: { type: string; category: string }[] };

/**
 * The events an append of this connection holds, at their positions: consecutive, since BEGIN
 * IMMEDIATE holds the write lock throughout. A retried append answers the first append's positions
 * and events (the same ids at the same revisions), which a waiting subscriber has already passed.
 */
const ownAppendOf = (
  streamId: string,
  events: readonly EventToAppend[],
  result: AppendResult,
): OwnAppend | null => {
  const first = result.positions?.[0];
  if (first === undefined) return null;
  const category = categoryOf(streamId);
  return { first, last: result.position, events: events.map((event) => ({ type: event.type, category })) };
};

/**
 * A live subscription waiting for commits; `skip` passes over an append of this connection without
 * waking it (moving its checkpoint), or answers false.
 */
type Waiter = { resolve: () => void; skip?: (appended: OwnAppend) => boolean };

export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly pollIntervalMs: number;
  private readonly statements;
  private readonly readAllStatements = new Map<string, Database.Statement<unknown[], EventRow>>();
  private readonly waiters = new Set<Waiter>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly appendTransaction: Database.Transaction<(request: AppendRequest) => AppendResult>;
  private lastDataVersion: number;
  /** changeToken: commits seen, this connection's and other connections' (by PRAGMA data_version). */
  private changes = 0;
  private tokenDataVersion: number;
  private pollTimer: NodeJS.Timeout | undefined;
  /** `grouped` only: the WAL file (opened after the first commit), and the syncs in flight and next. */
  private readonly walPath: string | undefined;
  private walFd: number | undefined;
  private syncInFlight: Promise<void> | undefined;
  private syncNext: Promise<void> | undefined;
  private closed = false;

  constructor(options: SqliteEventStoreOptions) {
    const settings = { ...DEFAULTS, ...options };
    this.pollIntervalMs = settings.pollIntervalMs;
    this.db = new Database(settings.path, { timeout: settings.busyTimeoutMs });
    this.walPath = settings.synchronous === 'grouped' && !this.db.memory ? `${settings.path}-wal` : undefined;
    try {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma(`synchronous = ${settings.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
      migrate(this.db);
    } catch (error) {
      this.db.close();
      throw error;
    }
    const db = this.db;
    this.statements = {
      lastRevision: db
        .prepare<[string], number | null>('SELECT MAX(revision) FROM events WHERE stream_id = ?')
        .pluck(),
      refsFrom: db.prepare<[string, number, number], StoredRef>(
        'SELECT revision, event_id, position FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?',
      ),
      refsById: db.prepare<[string, string], StoredRef>(
        'SELECT revision, event_id, position FROM events WHERE stream_id = ? AND event_id IN (SELECT value FROM json_each(?)) ORDER BY revision',
      ),
      insert: db.prepare(
        `INSERT INTO events (stream_id, revision, event_id, category, type, schema_version, data, metadata, recorded_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      truncateBefore: db
        .prepare<[string], number>('SELECT truncate_before FROM truncated_streams WHERE stream_id = ?')
        .pluck(),
      readForwards: db.prepare<[string, number, number], EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?`,
      ),
      readBackwards: db.prepare<[string, number, number, number], EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = ? AND revision <= ? AND revision >= ? ORDER BY revision DESC LIMIT ?`,
      ),
      head: db.prepare<[], number | null>('SELECT MAX(position) FROM events').pluck(),
      dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
      deleteEvents: db.prepare('DELETE FROM events WHERE stream_id = ?'),
      deleteTruncation: db.prepare('DELETE FROM truncated_streams WHERE stream_id = ?'),
      deleteEventsBefore: db.prepare('DELETE FROM events WHERE stream_id = ? AND revision < ?'),
      setTruncation: db.prepare(
        `INSERT INTO truncated_streams (stream_id, truncate_before) VALUES (?, ?)
         ON CONFLICT (stream_id) DO UPDATE SET truncate_before = MAX(truncate_before, excluded.truncate_before)`,
      ),
    };
    // Created once: building a transaction wrapper per append cost a measurable share of an append.
    this.appendTransaction = db.transaction((request: AppendRequest) => this.appendRows(request));
    this.lastDataVersion = this.statements.dataVersion.get() ?? 0;
    this.tokenDataVersion = this.lastDataVersion;
  }

  async append(
    streamId: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const result = await this.appendVisible(streamId, events, expected);
    await this.whenDurable();
    return result;
  }

  /**
   * Commits the append and resolves once other readers can see it, maybe before it is durable: call
   * `whenDurable` before telling anyone it happened. Lets a caller start its next append on the same
   * stream during the sync (the command handler's queue), so that one sync serves both.
   */
  appendVisible(
    streamId: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    try {
      const result = this.appendNow(streamId, events, expected);
      this.wakeSubscribers(ownAppendOf(streamId, events, result));
      return Promise.resolve(result);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /**
   * Resolves once everything this store committed so far would survive a power cut: at once unless
   * `grouped`; then with the next sync of the WAL, shared by every append committed before it starts.
   */
  whenDurable(): Promise<void> {
    if (this.walPath === undefined) return Promise.resolve();
    if (!this.syncInFlight) {
      const sync = this.syncWal().finally(() => {
        if (this.syncInFlight === sync) this.syncInFlight = undefined;
      });
      this.syncInFlight = sync;
      return sync;
    }
    // The sync in flight may have started before this commit: the next one covers it.
    this.syncNext ??= this.syncInFlight
      .catch(() => undefined)
      .then(() => {
        this.syncNext = undefined;
        return this.whenDurable();
      });
    return this.syncNext;
  }

  /** fdatasync of the WAL file: it flushes the frames SQLite wrote through its own descriptor. */
  private syncWal(): Promise<void> {
    return new Promise((resolve, reject) => {
      try {
        this.walFd ??= openSync(this.walPath ?? '', 'r');
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      fdatasync(this.walFd, (error) => (error ? reject(error) : resolve()));
    });
  }

  /**
   * Synchronous core of append, for callers that batch work inside one tick (the replay benchmark).
   * Committed, not yet durable when `grouped`: call `whenDurable` after the last one.
   */
  appendNow(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): AppendResult {
    if (events.length === 0) throw new Error(`Append to ${streamId}: at least one event is required`);
    assertValidExpected(expected);
    try {
      return this.appendTransaction.immediate({ streamId, events, expected });
    } finally {
      this.changes += 1;
    }
  }

  /**
   * Changes whenever a commit happened since the last call: one of this connection's (counted
   * here) or another connection's (PRAGMA data_version, which counts only those).
   */
  changeToken(): number {
    const version = this.statements.dataVersion.get() ?? 0;
    if (version !== this.tokenDataVersion) {
      this.tokenDataVersion = version;
      this.changes += 1;
    }
    return this.changes;
  }

  /** Runs inside BEGIN IMMEDIATE: holds the write lock, so the revision read here cannot go stale. */
  private appendRows(request: AppendRequest): AppendResult {
    const { streamId, events, expected } = request;
    const { statements } = this;
    const last = statements.lastRevision.get(streamId) ?? null;
    const duplicate = this.findRetriedAppend(request, last);
    if (duplicate) return duplicate;
    if (!matchesExpected(expected, last))
      throw new WrongExpectedRevisionError(streamId, expected, last ?? 'no_stream');
    const category = categoryOf(streamId);
    const recordedAt = Date.now();
    let revision = last ?? -1;
    const positions: number[] = [];
    for (const event of events) {
      revision += 1;
      const info = statements.insert.run(
        streamId,
        revision,
        event.id,
        category,
        event.type,
        event.schemaVersion,
        JSON.stringify(event.data) ?? 'null',
        JSON.stringify(event.metadata),
        recordedAt,
      );
      positions.push(Number(info.lastInsertRowid));
    }
    return { nextRevision: revision, position: positions[positions.length - 1] ?? 0, positions };
  }

  /**
   * A retried append (same event ids at the same revisions) returns the original result instead of
   * appending again; an append that repeats only some of them is a conflict.
   */
  private findRetriedAppend(append: AppendRequest, last: number | null): AppendResult | null {
    const { streamId, events, expected } = append;
    if (last === null) return null;
    let start: number;
    switch (expected.kind) {
      case 'exact':
        start = expected.revision + 1;
        break;
      case 'no_stream':
        start = 0;
        break;
      case 'any':
      case 'stream_exists': {
        // Scans the stream (no event-id index, see MIGRATIONS): only any/stream_exists appends pay it.
        const found = this.statements.refsById.all(streamId, JSON.stringify(events.map((e) => e.id)));
        const first = found.find((ref) => ref.event_id === events[0]?.id);
        if (!first) {
          if (found.length > 0) throw new WrongExpectedRevisionError(streamId, expected, last);
          return null;
        }
        start = first.revision;
        break;
      }
    }
    if (start > last) return null;
    const stored = this.statements.refsFrom.all(streamId, start, events.length);
    const matching = events.filter((event, i) => stored[i]?.event_id === event.id).length;
    if (matching === events.length) {
      const lastStored = stored[events.length - 1];
      if (lastStored)
        return {
          nextRevision: lastStored.revision,
          position: lastStored.position,
          positions: stored.slice(0, events.length).map((ref) => ref.position),
        };
    }
    if (matching > 0) throw new WrongExpectedRevisionError(streamId, expected, last);
    return null;
  }

  readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    return this.run(() => {
      const limit = options.maxCount ?? -1;
      if (limit === 0) return [];
      const truncateBefore = this.statements.truncateBefore.get(streamId) ?? 0;
      const rows =
        options.direction === 'backwards'
          ? this.statements.readBackwards.all(
              streamId,
              options.fromRevision ?? Number.MAX_SAFE_INTEGER,
              truncateBefore,
              limit,
            )
          : this.statements.readForwards.all(
              streamId,
              Math.max(options.fromRevision ?? 0, truncateBefore),
              limit,
            );
      return rows.map(toRecordedEvent);
    });
  }

  readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.run(() => this.readAllNow(options.after ?? -1, Number.MAX_SAFE_INTEGER, options));
  }

  private readAllNow(after: number, upTo: number, options: ReadAllOptions): RecordedEvent[] {
    const limit = options.maxCount ?? -1;
    if (limit === 0) return [];
    const filter = filterClause(options.filter);
    let statement = this.readAllStatements.get(filter.sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM events WHERE position > ? AND position <= ?${filter.sql} ORDER BY position LIMIT ?`,
      );
      this.readAllStatements.set(filter.sql, statement);
    }
    return statement.all(after, upTo, ...filter.params, limit).map(toRecordedEvent);
  }

  headPosition(): Promise<number> {
    return this.run(() => this.statements.head.get() ?? -1);
  }

  subscribe(handler: (event: RecordedEvent) => Promise<void>, options: SubscribeOptions = {}): Subscription {
    let stopped = false;
    let wake: Waiter | undefined;
    const { filter } = options;
    const loop = async (): Promise<void> => {
      let checkpoint = options.after ?? -1;
      while (!stopped) {
        // Read up to a head fixed first: writers commit positions in order, so nothing at or below
        // the head can appear later, and the checkpoint may skip filtered-out events up to it.
        const head = this.statements.head.get() ?? -1;
        const batch = this.readAllNow(checkpoint, head, { maxCount: CATCH_UP_BATCH, filter: options.filter });
        for (const event of batch) {
          if (stopped) return;
          await handler(event);
          checkpoint = event.position;
        }
        if (batch.length === CATCH_UP_BATCH) continue;
        checkpoint = Math.max(checkpoint, head);
        if (stopped) return;
        // Appends made while the handler ran woke nobody: look again before sleeping.
        if ((this.statements.head.get() ?? -1) > head) continue;
        // Registered in the same tick as the read above, so no commit can slip in between unnoticed.
        await new Promise<void>((resolve) => {
          const waiter: Waiter = {
            resolve,
            // This connection's own append right after the checkpoint, none of whose events the
            // filter takes, is passed over without a read (the reports worker's reactors skip most
            // of a tick's appends). Anything else (another process's commit, an event it takes, a
            // gap before the append) wakes the loop, which reads from its checkpoint as before.
            ...(filter
              ? {
                  skip: (appended: OwnAppend) => {
                    if (appended.first !== checkpoint + 1) return false;
                    if (appended.events.some((event) => matchesFilter(filter, event))) return false;
                    checkpoint = appended.last;
                    return true;
                  },
                }
              : {}),
          };
          wake = waiter;
          this.waitForChange(waiter);
        });
        wake = undefined;
      }
    };
    const done = loop();
    done.catch(() => undefined); // the caller observes failures through `done`; never an unhandled rejection
    const subscription: Subscription = {
      done,
      stop: async () => {
        stopped = true;
        if (wake) {
          this.waiters.delete(wake);
          wake.resolve();
        }
        this.subscriptions.delete(subscription);
        await done.catch(() => undefined);
      },
    };
    this.subscriptions.add(subscription);
    void done.finally(() => this.subscriptions.delete(subscription)).catch(() => undefined);
    return subscription;
  }

  deleteStream(streamId: string): Promise<void> {
    return this.run(() => {
      this.changes += 1;
      this.db
        .transaction(() => {
          this.statements.deleteEvents.run(streamId);
          this.statements.deleteTruncation.run(streamId);
        })
        .immediate();
    });
  }

  truncateStream(streamId: string, beforeRevision: number): Promise<void> {
    return this.run(() => {
      this.changes += 1;
      this.db
        .transaction(() => {
          const last = this.statements.lastRevision.get(streamId) ?? null;
          if (last === null) return;
          // The newest event stays on disk (hidden from reads) because it carries the stream's revision.
          this.statements.deleteEventsBefore.run(streamId, Math.min(beforeRevision, last));
          this.statements.setTruncation.run(streamId, beforeRevision);
        })
        .immediate();
    });
  }

  async close(): Promise<void> {
    // From here no new polling starts: close awaits the WAL sync below, and a timer left running
    // would query a closed connection.
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    this.stopPolling();
    await this.syncNext?.catch(() => undefined);
    await this.syncInFlight?.catch(() => undefined);
    if (this.walFd !== undefined) closeSync(this.walFd);
    this.walFd = undefined;
    this.db.close();
  }

  private run<T>(work: () => T): Promise<T> {
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private waitForChange(waiter: Waiter): void {
    this.waiters.add(waiter);
    if (this.closed) return;
    // The baseline is not refreshed here: a commit made since the last poll must still wake us.
    this.pollTimer ??= setInterval(() => this.poll(), this.pollIntervalMs);
  }

  private poll(): void {
    if (this.closed) return this.stopPolling();
    const version = this.statements.dataVersion.get() ?? 0;
    if (version !== this.lastDataVersion) {
      this.lastDataVersion = version;
      this.wakeSubscribers();
    }
  }

  /** Wakes every waiting subscriber, but those that can pass over `ownAppend` (this connection's). */
  private wakeSubscribers(ownAppend: OwnAppend | null = null): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    const woken: Waiter[] = [];
    for (const waiter of waiters) {
      if (ownAppend && waiter.skip?.(ownAppend)) this.waiters.add(waiter);
      else woken.push(waiter);
    }
    // Those still waiting still need other processes' commits noticed.
    if (this.waiters.size === 0) this.stopPolling();
    for (const waiter of woken) waiter.resolve();
  }

  private stopPolling(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }
}

/** Opens (and if needed creates or migrates) the store at `options.path`. */
export const openSqliteEventStore = (options: SqliteEventStoreOptions): Promise<EventStore> => {
  try {
    return Promise.resolve(new SqliteEventStore(options));
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
};
