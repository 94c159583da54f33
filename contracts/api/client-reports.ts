import { z } from 'zod';

/**
 * The advisors' Client Performance Summary (portal.md sections 7 and 9, admin.md section 2):
 * GET /api/tenants/{id}/reports/client (a firm's clients) and GET /api/users/{id}/reports/client
 * (an advisor's clients), both answering FileContent (contracts/api/reports.ts). A PDF for 1 to 29
 * clients; from 30, or with format=xlsx, a sheet.
 */
const Id = z.coerce.number().pipe(
  z
    .int()
    .positive()
    .max(2 ** 31),
);

export const ClientReportParams = z.object({ id: Id }).strict();
export type ClientReportParams = z.infer<typeof ClientReportParams>;

export const ClientReportQuery = z.object({ format: z.enum(['pdf', 'xlsx']).default('pdf') }).strict();
export type ClientReportQuery = z.infer<typeof ClientReportQuery>;
