import { createHash } from 'node:crypto';
import type { Db } from 'mongodb';
import type { Projection } from '../../projections/framework/projection';
import { physicalNames } from '../../projections/framework/read-model-versions';

/** JSON with sorted keys and tagged dates, so equal documents always give equal text. */
const canonical = (value: unknown): unknown => {
  if (value instanceof Date) return { $date: value.toISOString() };
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, canonical(record[key])]),
    );
  }
  return value;
};

/** A digest of every document of a collection (ordered by _id), leaving out volatile fields. */
export const collectionChecksum = async (
  db: Db,
  collection: string,
  volatileFields: readonly string[] = [],
): Promise<{ count: number; sha256: string }> => {
  const hash = createHash('sha256');
  let count = 0;
  for await (const doc of db.collection(collection).find({}).sort({ _id: 1 })) {
    const kept = { ...doc } as Record<string, unknown>;
    for (const field of volatileFields) delete kept[field];
    hash.update(JSON.stringify(canonical(kept)));
    hash.update('\n');
    count += 1;
  }
  return { count, sha256: hash.digest('hex') };
};

/** Checksums of every collection of one version of a read model, by collection key. */
export const versionChecksums = async (
  db: Db,
  projection: Projection,
  version: number,
): Promise<Record<string, { count: number; sha256: string }>> => {
  const names = physicalNames(projection, version);
  const entries = await Promise.all(
    Object.entries(names).map(async ([key, name]) => [key, await collectionChecksum(db, name)] as const),
  );
  return Object.fromEntries(entries);
};
