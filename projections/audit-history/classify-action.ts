/** The audit history's Action column; DELETE rows are highlighted as a warning (admin.md). */
export type AuditAction = 'CREATE' | 'UPDATE' | 'DELETE';

/** Event types whose verb is not their last word. */
const byType: Record<string, AuditAction> = {
  UserJoinedTenant: 'CREATE',
  UserLeftTenant: 'DELETE',
};

const createVerbs = new Set(['Created', 'Registered', 'Connected', 'Added', 'Invited', 'Opened']);
const deleteVerbs = new Set(['Deleted', 'Purged', 'Removed', 'Erased']);

/**
 * Derives the action from the event type's last word: `SellerConnected` creates, `TenantPurged`
 * deletes, anything else updates. The whole word counts, so `SellerReconnected` and
 * `IntegrationDisconnected` are updates.
 */
export const classifyAction = (eventType: string): AuditAction => {
  const fixed = byType[eventType];
  if (fixed) return fixed;
  const lastWord = /[A-Z][a-z0-9]*$/.exec(eventType)?.[0] ?? eventType;
  if (createVerbs.has(lastWord)) return 'CREATE';
  if (deleteVerbs.has(lastWord)) return 'DELETE';
  return 'UPDATE';
};
