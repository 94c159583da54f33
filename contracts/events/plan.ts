import { z } from 'zod';
import { EntityId, IsoDateTime, type PersonalDataFields } from './values';

/** CLIENT plans are what an advisory firm's clients subscribe to. */
export const PlanClassification = z.enum(['BUSINESS', 'FIRM', 'CLIENT']);
export type PlanClassification = z.infer<typeof PlanClassification>;

export const PlanProduct = z.object({
  /** group/feature, e.g. reports/customer_sheet. */
  Identifier: z.string().min(1),
  MeteredUsage: z.boolean(),
  LicensedQuantity: z.number().int().min(0).max(10000).nullable(),
});
export type PlanProduct = z.infer<typeof PlanProduct>;

/** Trial length in days. */
const TrialPeriod = z.number().int().min(0).max(365);

export const PlanCreated = z.object({
  type: z.literal('PlanCreated'),
  data: z.object({
    PlanId: EntityId,
    /** Stable: subscriptions, partners and the sign-up cookie refer to plans by it. */
    Identifier: z.string().regex(/^[a-z0-9_]+$/),
    Name: z.string().min(1),
    Classification: PlanClassification,
    Default: z.boolean(),
    Active: z.boolean(),
    TrialPeriod,
    Products: z.array(PlanProduct),
    CreatedAt: IsoDateTime,
  }),
});

export const PlanRenamed = z.object({
  type: z.literal('PlanRenamed'),
  data: z.object({ PlanId: EntityId, Name: z.string().min(1) }),
});

export const PlanTrialPeriodChanged = z.object({
  type: z.literal('PlanTrialPeriodChanged'),
  data: z.object({ PlanId: EntityId, TrialPeriod }),
});

/** The whole product list after the change. */
export const PlanProductsChanged = z.object({
  type: z.literal('PlanProductsChanged'),
  data: z.object({ PlanId: EntityId, Products: z.array(PlanProduct) }),
});

export const PlanDefaultChanged = z.object({
  type: z.literal('PlanDefaultChanged'),
  data: z.object({ PlanId: EntityId, Default: z.boolean() }),
});

export const PlanActivated = z.object({
  type: z.literal('PlanActivated'),
  data: z.object({ PlanId: EntityId }),
});

export const PlanDeactivated = z.object({
  type: z.literal('PlanDeactivated'),
  data: z.object({ PlanId: EntityId }),
});

export const PlanEvent = z.discriminatedUnion('type', [
  PlanCreated,
  PlanRenamed,
  PlanTrialPeriodChanged,
  PlanProductsChanged,
  PlanDefaultChanged,
  PlanActivated,
  PlanDeactivated,
]);
export type PlanEvent = z.infer<typeof PlanEvent>;

export const planEventVersions = {
  PlanCreated: 1,
  PlanRenamed: 1,
  PlanTrialPeriodChanged: 1,
  PlanProductsChanged: 1,
  PlanDefaultChanged: 1,
  PlanActivated: 1,
  PlanDeactivated: 1,
} as const satisfies Record<PlanEvent['type'], number>;

export const planPersonalDataFields = {
  PlanCreated: [],
  PlanRenamed: [],
  PlanTrialPeriodChanged: [],
  PlanProductsChanged: [],
  PlanDefaultChanged: [],
  PlanActivated: [],
  PlanDeactivated: [],
} as const satisfies PersonalDataFields<PlanEvent>;
