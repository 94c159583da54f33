import { auditHistoryProjection } from './audit-history/audit-history-projection';
import type { Projection } from './framework/projection';

/** Every read model the projector keeps; each gets its own processor and checkpoint. */
export const projections: readonly Projection[] = [auditHistoryProjection];

export const projectionNamed = (name: string): Projection | undefined =>
  projections.find((projection) => projection.name === name);
