import { z } from 'zod';
import { EntityId, type PersonalDataFields } from './values';

/**
 * Bookkeeping events of id allocation (commands/id-allocator.ts). Stream `ids-<category>` holds one
 * IdAllocated per id handed out, at revision id - 1; stream `idclaim-<category>-<command key>` holds
 * the one IdClaimed that makes a retried command get its id again. No personal data.
 */
export const IdCategory = z.enum([
  'tenant',
  'user',
  'seller',
  'invite',
  'integration',
  'recipient',
  'billing',
  'partner',
  'plan',
  'job',
  // Ids of records that are events of another aggregate, not streams of their own.
  'archivedReport',
]);
export type IdCategory = z.infer<typeof IdCategory>;

/**
 * Categories whose ids name no stream: an archived report is an event of its report job
 * (JobReportArchived, docs/adr/0035-report-archive.md) with an id users see in the archive.
 */
export const recordIdCategories = ['archivedReport'] as const satisfies readonly IdCategory[];

export const IdAllocated = z.object({
  type: z.literal('IdAllocated'),
  data: z.object({ category: IdCategory, id: EntityId, claimKey: z.string().min(1) }),
});

export const IdClaimed = z.object({
  type: z.literal('IdClaimed'),
  data: z.object({ category: IdCategory, id: EntityId, claimKey: z.string().min(1) }),
});

export const IdAllocationEvent = z.discriminatedUnion('type', [IdAllocated, IdClaimed]);
export type IdAllocationEvent = z.infer<typeof IdAllocationEvent>;

export const idAllocationEventVersions = {
  IdAllocated: 1,
  IdClaimed: 1,
} as const satisfies Record<IdAllocationEvent['type'], number>;

export const idAllocationPersonalDataFields = {
  IdAllocated: [],
  IdClaimed: [],
} as const satisfies PersonalDataFields<IdAllocationEvent>;
