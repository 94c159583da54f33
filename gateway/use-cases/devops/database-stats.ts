import type { Db } from 'mongodb';
import type { DatabaseResponse } from '../../../contracts/api/devops';

/** Documents read per collection to name its fields: the read models' documents share one shape. */
const FIELD_SAMPLE = 20;

/** Field names of sampled documents, nested ones dotted (`Settings.Reporting`), at most two levels. */
const fieldsOf = (docs: readonly Record<string, unknown>[]): string[] => {
  const names = new Set<string>();
  for (const doc of docs) {
    for (const [key, value] of Object.entries(doc)) {
      names.add(key);
      if (value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)) {
        const proto = Object.getPrototypeOf(value) as unknown;
        if (proto === Object.prototype || proto === null)
          for (const inner of Object.keys(value)) names.add(`${key}.${inner}`);
      }
    }
  }
  return [...names].sort((a, b) => a.localeCompare(b));
};

/** GET /api/devops/database: per read-store collection its name, document count and field names. */
export const databaseStats = async (db: Db, kind: DatabaseResponse['kind']): Promise<DatabaseResponse> => {
  const names = (await db.listCollections({}, { nameOnly: true }).toArray())
    .map((collection) => collection.name)
    .sort((a, b) => a.localeCompare(b));
  const collections = await Promise.all(
    names.map(async (name) => {
      const collection = db.collection<Record<string, unknown>>(name);
      const [count, sample] = await Promise.all([
        collection.estimatedDocumentCount(),
        collection.find({}).limit(FIELD_SAMPLE).toArray(),
      ]);
      return { name, count, fields: fieldsOf(sample) };
    }),
  );
  return { kind, collections };
};
