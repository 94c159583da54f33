import { z } from 'zod';

/** portal.md section 5: optional unless several companies are on the computer; ends in .qbw, any case. */
export const QbdConfigRequest = z
  .object({
    companyFilename: z
      .string()
      .trim()
      .max(260)
      .refine((path) => path === '' || /\.qbw$/i.test(path), {
        message: 'The company file path must end in .qbw.',
      })
      .optional(),
  })
  .strict();
export type QbdConfigRequest = z.infer<typeof QbdConfigRequest>;

/** The Web Connector file (saved as .qwc) and its one-time password, shown once. */
export const QbdConfigResponse = z.object({
  Id: z.number(),
  xml: z.string(),
  password: z.string(),
  fileName: z.string(),
});
export type QbdConfigResponse = z.infer<typeof QbdConfigResponse>;
