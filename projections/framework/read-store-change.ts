import type { Db } from 'mongodb';
import { EmbeddedDb } from '../read-store/embedded/embedded-db';

/**
 * A value equal on two calls only if nothing at all was written to the read store in between, by
 * this process or any other (docs/adr/0054); undefined where the store cannot tell (MongoDB). Caches
 * of keyed reads that must see every write at once (session epochs, ADR 29) skip their read while it
 * holds. Take it before the read it stands for, so a write after it is never missed.
 */
export const readStoreChangeToken = (db: Db): string | undefined =>
  (db as unknown) instanceof EmbeddedDb ? (db as unknown as EmbeddedDb).changeToken() : undefined;

type QuietReads = { token: string; values: Map<string, Promise<unknown>> };
const quietReads = new WeakMap<Db, QuietReads>();
/** Reads remembered per quiet stretch; more distinct keys than this start the stretch's memory over. */
const MAX_QUIET_READS = 256;

/**
 * `read()`, or the answer it gave for `key` while nothing at all has been written to the read store
 * since that read began (same change token, ADR 54): the store then holds what it held, so the
 * answer is the one a new read would give. Requests woken together by one projector batch (ten
 * PUTs of one user answered from the same write) read once between them. Any write, by any
 * connection, starts over; a store without a token (MongoDB) reads every time. The answer is
 * shared: callers must not change it. A failed read is not kept.
 */
export const readWhileQuiet = <T>(db: Db, key: string, read: () => Promise<T>): Promise<T> => {
  const token = readStoreChangeToken(db);
  if (token === undefined) return read();
  let reads = quietReads.get(db);
  if (reads?.token !== token) {
    reads = { token, values: new Map() };
    quietReads.set(db, reads);
  }
  const known = reads.values.get(key);
  if (known) return known as Promise<T>;
  if (reads.values.size >= MAX_QUIET_READS) reads.values.clear();
  const reading = read();
  const { values } = reads;
  values.set(key, reading);
  reading.catch(() => {
    if (values.get(key) === reading) values.delete(key);
  });
  return reading;
};
