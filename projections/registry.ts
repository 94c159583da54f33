import { invitesProjection } from './invites/invites-projection';
import { usersProjection } from './users/users-projection';
import { tenantsProjection } from './tenants/tenants-projection';
import { auditHistoryProjection } from './audit-history/audit-history-projection';
import type { Projection } from './framework/projection';
import { sellersProjection } from './sellers/sellers-projection';
import { integrationsProjection } from './integrations/integrations-projection';
import { crmCompanyLinksProjection } from './integrations/crm-company-links-projection';
import { crmPushesProjection } from './integrations/crm-pushes-projection';
import { recipientsProjection } from './recipients/recipients-projection';
import { partnersProjection } from './partners/partners-projection';
import { plansProjection } from './plans/plans-projection';
import { billingSubscriptionsProjection } from './billing/billing-projection';
import { jobsProjection } from './jobs/jobs-projection';
import { reportsProjection } from './reports/reports-projection';

/** Every read model the projector keeps; each gets its own processor and checkpoint. */
export const projections: readonly Projection[] = [
  auditHistoryProjection,
  tenantsProjection,
  usersProjection,
  invitesProjection,
  sellersProjection,
  integrationsProjection,
  crmCompanyLinksProjection,
  crmPushesProjection,
  recipientsProjection,
  partnersProjection,
  plansProjection,
  billingSubscriptionsProjection,
  jobsProjection,
  reportsProjection,
];

export const projectionNamed = (name: string): Projection | undefined =>
  projections.find((projection) => projection.name === name);
