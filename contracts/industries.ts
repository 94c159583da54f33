import { z } from 'zod';

/** GET /api/industries?source=NAICS2017|SIC (portal.md section 7): each industry with Description and Examples. */
export const IndustrySource = z.enum(['NAICS2017', 'SIC']);
export type IndustrySource = z.infer<typeof IndustrySource>;

export const Industry = z.object({
  Code: z.string(),
  Title: z.string(),
  Description: z.string(),
  Examples: z.array(z.string()),
});
export type Industry = z.infer<typeof Industry>;

export const IndustriesQuery = z.object({ source: IndustrySource.default('NAICS2017') }).strict();
export type IndustriesQuery = z.infer<typeof IndustriesQuery>;
