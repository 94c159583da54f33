import type { Db } from 'mongodb';

/**
 * The QuickBooks Desktop request log (admin.md section 2, log viewer; ADR 44): one entry per
 * Web Connector call, written by the SOAP service as it answers. It is a read model of its own,
 * not projected from events: a Web Connector call changes no aggregate, and a hundred calls an hour
 * per company would only crowd the seller's stream. Entries older than 90 days go (TTL index).
 */
export const QBD_LOGS_COLLECTION = 'qbd_logs';
export const QBD_LOG_RETENTION_DAYS = 90;

export type QbdLogEntry = {
  sellerId: number;
  tenantId: number | null;
  /** The session ticket ('' before authentication succeeded). */
  session: string;
  /** The SOAP method (authenticate, sendRequestXML, ...) or "capture". */
  endpoint: string;
  /** "OK", "OK: ..." or "FAIL: <reason>"; a status starting FAIL: is a failure. */
  status: string;
  /** The query the call sent or answered (CustomerQueryRq, ...), when there is one. */
  request: string | null;
  records: number;
  at: Date;
};

const collection = (db: Db) => db.collection<QbdLogEntry>(QBD_LOGS_COLLECTION);

let indexed: WeakSet<Db> = new WeakSet();

const ensureIndexes = async (db: Db) => {
  if (indexed.has(db)) return;
  await collection(db).createIndex({ sellerId: 1, at: -1 });
  await collection(db).createIndex({ at: 1 }, { expireAfterSeconds: QBD_LOG_RETENTION_DAYS * 24 * 3600 });
  indexed.add(db);
};

/** For tests that drop databases between runs. */
export const forgetQbdLogIndexes = () => {
  indexed = new WeakSet();
};

export const writeQbdLog = async (db: Db, entry: QbdLogEntry): Promise<void> => {
  await ensureIndexes(db);
  await collection(db).insertOne({ ...entry });
};

/** The seller's most recent entries, newest first. */
export const latestQbdLogs = async (db: Db, sellerId: number, limit: number): Promise<QbdLogEntry[]> => {
  await ensureIndexes(db);
  return collection(db)
    .find({ sellerId }, { projection: { _id: 0 }, sort: { at: -1 }, limit })
    .toArray();
};

/** Requests per UTC day over the trailing 90 days, oldest first. */
export const qbdRequestSummary = async (
  db: Db,
  sellerId: number,
  now: Date,
): Promise<{ date: string; count: number }[]> => {
  await ensureIndexes(db);
  const from = new Date(now.getTime() - QBD_LOG_RETENTION_DAYS * 24 * 3600 * 1000);
  const rows = await collection(db)
    .find({ sellerId, at: { $gte: from } }, { projection: { _id: 0, at: 1 } })
    .toArray();
  const counts = new Map<string, number>();
  for (const row of rows) {
    const day = row.at.toISOString().slice(0, 10);
    counts.set(day, (counts.get(day) ?? 0) + 1);
  }
  return [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, count]) => ({ date, count }));
};

/** When each query (CustomerQueryRs, ...) was last answered without failure. */
export const qbdLastAnswers = async (db: Db, sellerId: number): Promise<Map<string, Date>> => {
  await ensureIndexes(db);
  const rows = await collection(db)
    .aggregate<{ _id: string; at: Date }>([
      { $match: { sellerId, endpoint: { $in: ['receiveResponseXML', 'capture'] }, request: { $ne: null } } },
      { $match: { status: { $regex: '^OK' } } },
      { $group: { _id: '$request', at: { $max: '$at' } } },
    ])
    .toArray();
  return new Map(rows.map((row) => [row._id, row.at]));
};
