import { z } from 'zod';
import { EntityId } from '../events/values';
import { RecipientState } from '../events/recipient';
import { Text } from './common';

/** GET /api/subscriptions: the tenant's report recipients; `scope=all` is the admin table. */
export const SubscriptionsQuery = z
  .object({
    scope: z.enum(['all']).optional(),
    sellerId: z.coerce.number().int().positive().optional(),
    state: RecipientState.optional(),
    search: Text(200).optional(),
  })
  .strict();
export type SubscriptionsQuery = z.infer<typeof SubscriptionsQuery>;

/** POST /api/subscriptions: a team member (userId) or a contact (email and name) for a seller's reports. */
export const CreateSubscriptionRequest = z
  .object({
    userId: EntityId.optional(),
    email: z.email('Email is invalid').max(254).optional(),
    name: Text(200).optional(),
    sellerId: EntityId,
    jobTitle: Text(100).optional(),
    SendWeekly: z.boolean().optional(),
    SendMonthly: z.boolean().optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.userId === undefined && body.email === undefined)
      ctx.addIssue({ code: 'custom', path: ['email'], message: 'Email is required' });
    if (body.userId !== undefined && body.email !== undefined)
      ctx.addIssue({ code: 'custom', path: ['userId'], message: 'Give a user or an email, not both' });
  });
export type CreateSubscriptionRequest = z.infer<typeof CreateSubscriptionRequest>;

/** PATCH /api/subscriptions/:id: STATE (activate or deactivate) or exactly one of the send flags. */
export const PatchSubscriptionRequest = z
  .object({
    STATE: RecipientState.extract(['ACTIVE', 'INACTIVE']).optional(),
    SendWeekly: z.boolean().optional(),
    SendMonthly: z.boolean().optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length === 1, {
    message: 'Send STATE or exactly one of SendWeekly and SendMonthly',
    path: ['STATE'],
  });
export type PatchSubscriptionRequest = z.infer<typeof PatchSubscriptionRequest>;

export const RecipientResponse = z.object({
  Id: z.number(),
  TenantId: z.number(),
  SellerId: z.number(),
  Seller: z.object({ Id: z.number(), CompanyName: z.string().nullable() }),
  SubscriberId: z.number().nullable(),
  Subscriber: z.object({
    Id: z.number().nullable(),
    Email: z.string().nullable(),
    GivenName: z.string().nullable(),
    FamilyName: z.string().nullable(),
    JobTitle: z.string().nullable(),
  }),
  STATE: RecipientState,
  SendWeekly: z.boolean(),
  SendMonthly: z.boolean(),
  TrackWelcomeDate: z.string().nullable(),
  TrackWeeklyDate: z.string().nullable(),
  TrackMonthlyDate: z.string().nullable(),
  createdAt: z.string(),
  Danger: z.boolean(),
  StateAction: z.enum(['deactivate', 'activate']),
});
export type RecipientResponse = z.infer<typeof RecipientResponse>;

export const RecipientsResponse = z.object({
  rows: z.array(RecipientResponse),
  total: z.number(),
  filtered: z.number(),
});

export const recipientAddedMessage = 'Recipient Added Successfully';

/**
 * Demo recipients never receive mail (portal.md section 2.3, Request Report modal): the demo tenant's
 * made-up client and firm addresses, and the reserved top-level domains no mailbox can have (RFC 2606).
 */
const demoRecipientDomains = ['demo-client.ledgerwise.local', 'demo-firm.ledgerwise.local'];
const reservedTopLevelDomains = ['.example', '.invalid', '.localhost'];

export const isDemoRecipientEmail = (email: string): boolean => {
  const domain = email.trim().toLowerCase().split('@').at(-1) ?? '';
  return (
    demoRecipientDomains.some((demo) => domain === demo || domain.endsWith(`.${demo}`)) ||
    reservedTopLevelDomains.some((tld) => domain.endsWith(tld))
  );
};
