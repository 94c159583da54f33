import { z } from 'zod';

/** A user-visible numeric id (TenantId, SellerId...): a positive integer allocated by the command layer. */
export const EntityId = z.int().positive();
export type EntityId = z.infer<typeof EntityId>;

/** A point in time in event data: an ISO-8601 string taken from the command's `now`. */
export const IsoDateTime = z.iso.datetime();
export type IsoDateTime = z.infer<typeof IsoDateTime>;
