import type { Db } from 'mongodb';
import { PROJECTION_CHECKPOINTS, type Checkpoint } from '../framework/read-model-versions';
import { TENANTS } from '../tenants/tenants-projection';
import { USERS } from './users-projection';

/**
 * A value that changes whenever a read model callerFacts reads may have changed (the users read model
 * holds users and memberships, the tenants read model the tenant's status): the checkpoints of every
 * version of both, in two ranges of the primary key over a handful of documents. A gateway process caches caller facts
 * under this marker (ADR 29), so a membership revoked or a role changed through any process reaches
 * every process once the projector has applied it, with no message between processes.
 */
export const callerFactsMarker = async (db: Db): Promise<string> => {
  const checkpoints = db.collection<Checkpoint>(PROJECTION_CHECKPOINTS);
  // Checkpoint ids are `<name>@<version>`: a range of the primary key, which the index serves.
  const ofProjection = (name: string) =>
    checkpoints
      .find({ _id: { $gte: `${name}@`, $lt: `${name}@~` } }, { projection: { position: 1 } })
      .toArray();
  const found = (await Promise.all([ofProjection(USERS), ofProjection(TENANTS)])).flat();
  return found
    .map((checkpoint) => `${checkpoint._id}=${checkpoint.position}`)
    .sort()
    .join(',');
};
