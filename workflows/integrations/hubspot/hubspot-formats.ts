import { z } from 'zod';

/**
 * The parts of HubSpot's answers the connector reads (CRM v3 objects, search, owners, OAuth token
 * metadata, errors), checked so a format change fails loudly instead of syncing blanks.
 */

/** Property values arrive as strings; a requested property the record does not have is null. */
const PropertyValues = z.record(z.string(), z.string().nullable().optional());

export const HubSpotAssociationRef = z.object({ id: z.coerce.string(), type: z.string() });

export const HubSpotObject = z.object({
  id: z.string(),
  properties: PropertyValues,
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  archived: z.boolean().optional(),
  associations: z
    .record(z.string(), z.object({ results: z.array(HubSpotAssociationRef) }).passthrough())
    .optional(),
});
export type HubSpotObject = z.infer<typeof HubSpotObject>;

export const HubSpotPaging = z
  .object({ next: z.object({ after: z.string(), link: z.string().optional() }).optional() })
  .optional();

export const HubSpotObjectPage = z.object({ results: z.array(HubSpotObject), paging: HubSpotPaging });

export const HubSpotSearchAnswer = z.object({
  total: z.number(),
  results: z.array(HubSpotObject),
  paging: HubSpotPaging,
});

export const HubSpotOwner = z.object({
  id: z.string(),
  email: z.string().nullable().optional(),
  firstName: z.string().nullable().optional(),
  lastName: z.string().nullable().optional(),
  archived: z.boolean().optional(),
});
export const HubSpotOwnerPage = z.object({ results: z.array(HubSpotOwner), paging: HubSpotPaging });

export const HubSpotTokenInfo = z.object({
  hub_domain: z.string().nullable().optional(),
  hub_id: z.number().optional(),
  scopes: z.array(z.string()).optional(),
});

/** HubSpot's error body: `{ status: 'error', message, category, correlationId }`. */
export const HubSpotError = z
  .object({
    message: z.string().optional(),
    category: z.string().optional(),
    /** MISSING_SCOPES names the scopes the call needed. */
    errors: z
      .array(
        z
          .object({
            context: z
              .object({ requiredGrantedScopes: z.array(z.string()).optional() })
              .passthrough()
              .optional(),
          })
          .passthrough(),
      )
      .optional(),
  })
  .passthrough();
