import { categoryOf } from '../../commands/event-store/event-store';
import type { RecordedEvent } from '../../contracts/events/envelope';
import type { LiveEntity, LiveEntityId } from '../../contracts/live';

/**
 * Whose channel an event's notice goes to. The request metadata's tenant is never used: it is the
 * actor's current tenant, which for a platform admin's edit is not the entity's.
 */
export type NoticeAudience =
  /** The tenant named by the event itself. */
  | { kind: 'tenant'; tenantId: number }
  /** The tenant that owns the stream, named by its first event (sellers, jobs...). */
  | { kind: 'stream-owner' }
  /** Every tenant the user is a member of (a rename shows in each tenant's users table). */
  | { kind: 'member-tenants'; userId: number }
  /** Platform entities (plans): platform admins only. */
  | { kind: 'platform' };

export type NoticeTarget = { entity: LiveEntity; id: LiveEntityId; audience: NoticeAudience };

const positiveId = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;

/** The tenant an event's payload names (`TenantId` in tenant and user events, `tenantId` elsewhere). */
export const tenantNamedBy = (data: unknown): number | null => {
  const fields = (data ?? {}) as { TenantId?: unknown; tenantId?: unknown };
  return positiveId(fields.TenantId) ?? positiveId(fields.tenantId);
};

/** Categories whose streams belong to one tenant, named by the stream's first event. */
const ownedCategories = new Set<LiveEntity>([
  'invite',
  'seller',
  'integration',
  'recipient',
  'partner',
  'billing',
  'job',
]);

const idOf = (suffix: string): LiveEntityId => positiveId(Number(suffix)) ?? suffix;

/** What an event's invalidate notice is about and whom it concerns; null for bookkeeping streams (ids). */
export const noticeTargetOf = (event: RecordedEvent): NoticeTarget | null => {
  const category = categoryOf(event.streamId);
  const suffix = event.streamId.slice(category.length + 1);
  if (suffix === '') return null;
  const named = tenantNamedBy(event.data);
  switch (category) {
    case 'tenant': {
      const tenantId = positiveId(Number(suffix));
      return tenantId === null
        ? null
        : { entity: 'tenant', id: tenantId, audience: { kind: 'tenant', tenantId } };
    }
    case 'user': {
      const userId = positiveId(Number(suffix));
      if (userId === null) return null;
      // Events about a membership name its tenant; the others are about the person.
      return named === null
        ? { entity: 'user', id: userId, audience: { kind: 'member-tenants', userId } }
        : { entity: 'membership', id: userId, audience: { kind: 'tenant', tenantId: named } };
    }
    case 'plan':
      return { entity: 'plan', id: idOf(suffix), audience: { kind: 'platform' } };
    default: {
      const entity = category as LiveEntity;
      if (!ownedCategories.has(entity)) return null;
      const audience: NoticeAudience =
        named === null ? { kind: 'stream-owner' } : { kind: 'tenant', tenantId: named };
      return { entity, id: idOf(suffix), audience };
    }
  }
};
