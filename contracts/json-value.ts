import { z } from 'zod';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * Any JSON value, as z.json() accepts, but registered under an id: the OpenAPI document then holds it
 * once in components and every use, its own recursion included, refers to it there. z.json() inline
 * leaves a `$ref` to a `schema0` the document never defines, so clients and fuzzers cannot resolve it.
 */
export const JsonValue: z.ZodType<JsonValue> = z
  .lazy(() =>
    z.union([
      z.string(),
      z.number(),
      z.boolean(),
      z.null(),
      z.array(JsonValue),
      z.record(z.string(), JsonValue),
    ]),
  )
  .meta({ id: 'JsonValue' });
