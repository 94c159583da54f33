import type { QueryKey } from '@tanstack/react-query';
import type { InvalidateNotice, LiveEntity } from '../../../contracts/live';
import { resources, sessionKey, tenantKey, type Resource } from '../api/query-keys';

/**
 * Which resources show each entity (docs/adr/0015-live-notices.md). A seller change also moves its
 * jobs and the clients page's platform column; a membership changes the team and the advisor views.
 */
const resourcesShowing: Record<LiveEntity, readonly Resource[]> = {
  tenant: [resources.tenant, resources.tenants, resources.clients],
  user: [resources.users, resources.clientUsers, resources.recipients],
  membership: [resources.users, resources.clientUsers, resources.clients, resources.tenants],
  invite: [resources.invites],
  seller: [resources.sellers, resources.clients, resources.recipients, resources.metrics],
  integration: [resources.integrations],
  recipient: [resources.recipients, resources.clients],
  partner: [resources.partners, resources.tenant, resources.clients],
  // A plan's products or a subscription's plan and products decide the plan-gated features.
  plan: [resources.plans, resources.features],
  billing: [resources.billing, resources.tenant, resources.clients, resources.features],
  job: [resources.jobs],
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
    notice.tenantId === null ? ['tenant', resource] : tenantKey(notice.tenantId, resource),
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
