import { z } from 'zod';

/** A user-visible numeric id (TenantId, SellerId...): a positive integer allocated by the command layer. */
export const EntityId = z.int().positive();
export type EntityId = z.infer<typeof EntityId>;

/** A point in time as an ISO-8601 string; in event data it is taken from the command's `now`. */
export const IsoDateTime = z.iso.datetime();
export type IsoDateTime = z.infer<typeof IsoDateTime>;

/**
 * Per event type, the names of its data fields that hold personal data (emails, names). A later layer
 * encrypts them per subject so that a tenant purge can erase them; the type keeps the lists to real fields.
 */
export type PersonalDataFields<Event extends { type: string; data: object }> = {
  [Type in Event['type']]: readonly (keyof Extract<Event, { type: Type }>['data'] & string)[];
};
