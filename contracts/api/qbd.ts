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

/** The Web Connector's SOAP envelope (POST /api/qbd/soap, text/xml). Answered in SOAP, not JSON. */
export const QbdSoapEnvelope = z
  .string()
  .min(1)
  .max(20 * 1024 * 1024);

/** admin.md QBD session form: starts a Web Connector session by hand (platform admins). */
export const QbdSessionRequest = z
  .object({
    sellerId: z.int().positive(),
    /** The QBD connection (the seller's id, as POST /api/qbd/config answers it). */
    configId: z.int().positive().optional(),
    /** Ignored when given: a new session always gets a new ticket. */
    session: z.string().max(100).optional(),
    /** The start of the window a sync asks QuickBooks for; default the seller's CollectionDate. */
    collectionDate: z.iso.datetime({ offset: true }).nullable().optional(),
    /** Repopulate (Reset for QBD): everything again into a new ledger epoch. */
    reset: z.boolean().optional(),
  })
  .strict();
export type QbdSessionRequest = z.infer<typeof QbdSessionRequest>;

export const QbdSessionResponse = z.object({
  session: z.string(),
  sellerId: z.number(),
  jobId: z.number(),
  mode: z.enum(['populate', 'sync', 'repopulate']),
  since: z.string().nullable(),
  until: z.string(),
});
export type QbdSessionResponse = z.infer<typeof QbdSessionResponse>;

/** admin.md QBD capture form: a captured qbXML response replayed into the seller's ledger. */
export const QbdCaptureRequest = z
  .object({
    sellerId: z.int().positive(),
    configId: z.int().positive().optional(),
    xml: z
      .string()
      .min(1)
      .max(20 * 1024 * 1024),
  })
  .strict();
export type QbdCaptureRequest = z.infer<typeof QbdCaptureRequest>;

export const QbdCaptureResponse = z.object({
  query: z.string(),
  records: z.number(),
  skipped: z.number(),
  written: z.number(),
});
export type QbdCaptureResponse = z.infer<typeof QbdCaptureResponse>;

export const QbdLogsParams = z.object({ id: z.coerce.number().int().positive() });
export const QbdLogsQuery = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(1000) });

export const QbdLog = z.object({
  Session: z.string(),
  Endpoint: z.string(),
  /** "OK..." or "FAIL: <reason>": a status starting FAIL: is a failure. */
  Status: z.string(),
  Request: z.string().nullable(),
  Records: z.number(),
  Time: z.string(),
});
export type QbdLog = z.infer<typeof QbdLog>;

export const QbdLogsResponse = z.object({
  logs: z.array(QbdLog),
  /** Requests per day over the trailing 90 days. */
  summary: z.array(z.object({ date: z.string(), count: z.number() })),
  config: z.object({
    sellerId: z.number(),
    companyFile: z.string().nullable(),
    webConnectorVersion: z.string().nullable(),
    /** The last finished sync of each query, ISO, or null. */
    lastSyncs: z.record(z.string(), z.string().nullable()),
  }),
});
export type QbdLogsResponse = z.infer<typeof QbdLogsResponse>;
