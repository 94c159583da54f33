import { z } from 'zod';

/**
 * What a DEMO company looks like: the seed makes it reproducible, the start date is where its history
 * begins, and invoicesPerYear sizes it (a few hundred for a demo tenant, hundreds of thousands for a
 * benchmark). Nothing depends on the wall clock: a sync asks for "everything up to this date".
 */
export const DemoProfile = z.object({
  seed: z.int().nonnegative(),
  startDate: z.iso.date(),
  invoicesPerYear: z.int().min(12).max(5_000_000),
});
export type DemoProfile = z.infer<typeof DemoProfile>;

/** The profile of a DEMO seller nobody configured: seeded by its id, a small business since 2022. */
export const defaultDemoProfile = (sellerId: number): DemoProfile => ({
  seed: sellerId,
  startDate: '2022-01-01',
  invoicesPerYear: 360,
});

/** About one purchase a month per customer, so the customer count follows the size. */
export const customerCountOf = (profile: DemoProfile): number =>
  Math.max(8, Math.round(profile.invoicesPerYear / 12));

export const productCountOf = (profile: DemoProfile): number =>
  12 + (profile.seed % 7) + Math.min(200, Math.floor(customerCountOf(profile) / 100));
