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
