import { z } from 'zod';

/** A numeric id in a path (`/api/sellers/{id}`): digits only, as the spec's ids are positive integers. */
export const IdParam = z
  .object({
    id: z.coerce
      .number()
      .int()
      .positive()
      .max(2 ** 31),
  })
  .strict();
export type IdParam = z.infer<typeof IdParam>;

/** `true`/`false`/`1`/`0` in a query string. */
export const QueryFlag = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

/** The answer of a command that returns nothing else. */
export const Done = z.object({ ok: z.literal(true) });
export type Done = z.infer<typeof Done>;

/** A one-line text field: trimmed, bounded. */
export const Text = (max = 200) => z.string().trim().max(max);

/** The body of a write that takes no input: anything sent is an unknown field. */
export const EmptyBody = z.object({}).strict();
