import { z } from 'zod';
import { JsonValue } from '../json-value';

/** A UI preference's name, such as dashboard-progress. */
export const BrowserStateParams = z
  .object({
    key: z
      .string()
      .regex(/^[A-Za-z0-9][\w.-]{0,63}$/, 'must be 1 to 64 letters, digits, dots, dashes or underscores'),
  })
  .strict();
export type BrowserStateParams = z.infer<typeof BrowserStateParams>;

/** The stored JSON is bounded so UI state cannot grow into a data store. */
export const browserStateMaxBytes = 16 * 1024;

/** PUT /api/browser/{key}: any JSON value (portal.md section 4: setup progress, per user and tenant). */
export const BrowserStateRequest = z.object({ value: JsonValue }).strict();
export type BrowserStateRequest = z.infer<typeof BrowserStateRequest>;

/** The value saved for the caller in their current tenant; null when nothing was saved. */
export const BrowserStateResponse = z.object({ key: z.string(), value: JsonValue.nullable() });
export type BrowserStateResponse = z.infer<typeof BrowserStateResponse>;
