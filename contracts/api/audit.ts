import { z } from 'zod';

/** admin.md section 9: the audit history shows at most 1000 rows. */
export const auditHistoryMaxRows = 1000;

/** GET /api/tenants/{id}/audit?limit= */
export const AuditQuery = z
  .object({
    limit: z.coerce
      .number()
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(auditHistoryMaxRows, `limit must be at most ${auditHistoryMaxRows}`)
      .default(auditHistoryMaxRows),
  })
  .strict();
export type AuditQuery = z.infer<typeof AuditQuery>;

/** One row of the audit history table (admin.md section 3, Audit log), newest first. */
export const AuditEntry = z.object({
  Id: z.string(),
  UserId: z.int().nullable(),
  /** Null for system actions and erased users. */
  User: z.object({ Email: z.string().nullable() }).nullable(),
  /** Rows whose Action is DELETE are highlighted as a warning. */
  Action: z.string(),
  /** The event behind the row, for the expanded details. */
  Type: z.string(),
  Asset: z.string(),
  AssetId: z.string(),
  createdAt: z.string(),
  Request: z.object({
    id: z.string().nullable(),
    IP: z.string().nullable(),
    URL: z.string().nullable(),
    method: z.string().nullable(),
    body: z.unknown(),
  }),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditResponse = z.object({ rows: z.array(AuditEntry) });
export type AuditResponse = z.infer<typeof AuditResponse>;
