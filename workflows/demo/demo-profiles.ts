import type { Db } from 'mongodb';
import { defaultDemoProfile, DemoProfile } from './demo-profile';

/** Profiles set for DEMO sellers (demo tenant seeding, benchmarks); others get defaultDemoProfile. */
const DEMO_PROFILES = 'demo_profiles';

type DemoProfileDoc = DemoProfile & { _id: number };

export const saveDemoProfile = async (db: Db, entry: { sellerId: number; profile: DemoProfile }) => {
  const profile = DemoProfile.parse(entry.profile);
  await db
    .collection<DemoProfileDoc>(DEMO_PROFILES)
    .replaceOne({ _id: entry.sellerId }, profile, { upsert: true });
};

export const demoProfileOf = async (db: Db, sellerId: number): Promise<DemoProfile> => {
  const doc = await db
    .collection<DemoProfileDoc>(DEMO_PROFILES)
    .findOne({ _id: sellerId }, { projection: { _id: 0 } });
  return doc ? DemoProfile.parse(doc) : defaultDemoProfile(sellerId);
};
