import { z } from 'zod';

/**
 * The "Stop receiving the weekly report" link of a report email (docs/adr/0037-report-sheets-and-email.md):
 * the email links to the web page /unsubscribe?token=..., which posts the token here. No session: the
 * signed token is the credential, and it names one subscription and one frequency.
 */
export const UnsubscribeRequest = z.object({ token: z.string().trim().min(1).max(200) }).strict();
export type UnsubscribeRequest = z.infer<typeof UnsubscribeRequest>;

/** RFC 8058: what a mail client POSTs to the List-Unsubscribe address for a one-click unsubscribe. */
export const OneClickUnsubscribeBody = z.object({ 'List-Unsubscribe': z.literal('One-Click') });

export const UnsubscribeFrequency = z.enum(['weekly', 'monthly']);
export type UnsubscribeFrequency = z.infer<typeof UnsubscribeFrequency>;

export const UnsubscribeResponse = z.object({
  frequency: UnsubscribeFrequency,
  /** The seller whose reports stop, when the subscription still exists. */
  companyName: z.string().nullable(),
  message: z.string(),
});
export type UnsubscribeResponse = z.infer<typeof UnsubscribeResponse>;

/** The answer to a token that is not genuine (tampered, truncated, signed with another key): 400. */
export const invalidUnsubscribeLinkMessage = 'This link is invalid.';

export const unsubscribedMessage = (frequency: UnsubscribeFrequency, companyName: string | null) =>
  `You will no longer receive the ${frequency} report${companyName ? ` of ${companyName}` : ''}.`;
