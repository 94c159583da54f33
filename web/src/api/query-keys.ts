/**
 * React-query keys. Server state belongs to a tenant, so every key starts with the tenant it was
 * read in: a switch can never show one company's rows under another's name. The session itself is
 * the one exception, since it is what names the current tenant.
 */
export const sessionKey = ['session'] as const;

export const tenantKey = (tenantId: number | null, ...parts: readonly unknown[]) =>
  ['tenant', tenantId ?? 'none', ...parts] as const;
