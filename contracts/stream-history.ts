import { z } from 'zod';
import { RecordedEvent } from './events/envelope';

/** GET /api/admin/streams/{streamId}/history: an admin's step-by-step replay of one aggregate. */
export const StreamHistoryParams = z
  .object({ streamId: z.string().regex(/^[a-z]+-[\w-]+$/, 'not a stream id') })
  .strict();
export const StreamHistoryQuery = z
  .object({
    from: z.coerce.number().int().nonnegative().optional(),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
  })
  .strict();

export const StreamHistoryResponse = z.object({
  streamId: z.string(),
  steps: z.array(z.object({ event: RecordedEvent, stateAfter: z.unknown() })),
  nextRevision: z.number().int().nullable(),
});
export type StreamHistoryResponse = z.infer<typeof StreamHistoryResponse>;
