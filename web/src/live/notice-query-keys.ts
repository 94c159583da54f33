import type { QueryKey } from '@tanstack/react-query';
import type { InvalidateNotice, LiveEntity } from '../../../contracts/live';
import { billingResource } from '../api/queries/billing';
import { clientUsersResource, clientsResource } from '../api/queries/clients';
import { forecastsResource } from '../api/queries/forecasts';
import { jobsResource } from '../api/queries/jobs';
import { metricsResource } from '../api/queries/metrics';
import { integrationsResource, sellersResource } from '../api/queries/platforms';
import { receivablesResource } from '../api/queries/receivables';
import { recipientsResource } from '../api/queries/recipients';
import { reportsResource } from '../api/queries/reports';
import { sessionKey } from '../api/queries/session';
import type { TenantResource } from '../api/queries/tenant-scope';
import { featuresResource, tenantDetailsResource } from '../api/queries/tenants';
import { invitesResource, usersResource } from '../api/queries/users';

/**
 * Which resources of web/src/api/queries show each entity (docs/adr/0015-live-notices.md): a new
 * resource module adds its resource here. A seller change also moves the clients page's platform
 * column and the metrics; a membership changes the team and the advisor views.
 */
const resourcesShowing: Record<LiveEntity, readonly TenantResource[]> = {
  tenant: [tenantDetailsResource, clientsResource],
  user: [usersResource, clientUsersResource, recipientsResource],
  membership: [usersResource, clientUsersResource, clientsResource],
  invite: [invitesResource],
  // A seller's new metrics date brings new receivables figures and forecasts with its metrics.
  seller: [
    sellersResource,
    clientsResource,
    recipientsResource,
    metricsResource,
    receivablesResource,
    forecastsResource,
  ],
  integration: [integrationsResource],
  recipient: [recipientsResource, clientsResource],
  partner: [tenantDetailsResource, clientsResource],
  // A plan's products or a subscription's plan and products decide the plan-gated features.
  plan: [featuresResource, billingResource],
  billing: [tenantDetailsResource, clientsResource, featuresResource, billingResource],
  // A finished report job archives files and moves the recipients' last-sent dates.
  job: [jobsResource, reportsResource, recipientsResource],
};

export type SessionIdentity = { userId: number; tenantId: number | null };

/** Whether the notice changes what the session says (the current tenant's name, the user's role). */
const touchesSession = (notice: InvalidateNotice, who: SessionIdentity): boolean =>
  (notice.entity === 'tenant' && notice.id === who.tenantId) ||
  ((notice.entity === 'user' || notice.entity === 'membership') && notice.id === who.userId);

/**
 * The query keys (prefixes) a notice makes stale: the entity's resources in the notice's tenant,
 * and the session when it names the current tenant or user. Platform notices (tenantId null, plans)
 * concern every tenant's copy.
 */
export const noticeQueryKeys = (notice: InvalidateNotice, who: SessionIdentity): QueryKey[] => {
  const keys: QueryKey[] = resourcesShowing[notice.entity].map((resource) =>
    notice.tenantId === null ? ['tenant', resource.name] : resource.key(notice.tenantId),
  );
  if (touchesSession(notice, who)) keys.push(sessionKey);
  return keys;
};

/** Platform notices match `['tenant', <any id>, resource]`; the others match as prefixes. */
export const matchesNoticeKey = (noticeKey: QueryKey, queryKey: QueryKey): boolean => {
  if (noticeKey.length === 2 && noticeKey[0] === 'tenant')
    return queryKey[0] === 'tenant' && queryKey[2] === noticeKey[1];
  return noticeKey.every((part, index) => queryKey[index] === part);
};
