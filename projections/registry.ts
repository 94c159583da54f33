import { invitesProjection } from './invites/invites-projection';
import { usersProjection } from './users/users-projection';
import { tenantsProjection } from './tenants/tenants-projection';
import { auditHistoryProjection } from './audit-history/audit-history-projection';
import type { Projection } from './framework/projection';

/** Every read model the projector keeps; each gets its own processor and checkpoint. */
export const projections: readonly Projection[] = [
  auditHistoryProjection,
  tenantsProjection,
  usersProjection,
  invitesProjection,
];

export const projectionNamed = (name: string): Projection | undefined =>
  projections.find((projection) => projection.name === name);
