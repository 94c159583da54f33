import { z } from 'zod';

/**
 * The browser redirects of sign-in with Google or Microsoft and of the platform connections
 * (portal.md section 7, "Browser redirects"). Their answers are redirects, so only their query
 * strings are contracts; errors travel back to the web app as `?error=<message>`.
 */

export const SignInProvider = z.enum(['google', 'microsoft']);
export type SignInProvider = z.infer<typeof SignInProvider>;

/** The platform connections started from the portal's connect cards, by the name in their callback path. */
export const ConnectProvider = z.enum([
  'qbo',
  'xero',
  'stripe',
  'hubspot',
  'revops',
  'salesforce',
  'google',
  'microsoft',
]);
export type ConnectProvider = z.infer<typeof ConnectProvider>;

/** The register page passes its query parameters on; the literal text `undefined` counts as absent. */
const carried = z
  .string()
  .trim()
  .max(200)
  .optional()
  .transform((value) => (value === undefined || value === '' || value === 'undefined' ? undefined : value));

export const ProviderSignUpQuery = z
  .object({
    referrer: carried,
    referrerIdentifier: carried,
    landingPage: carried,
    planIdentifier: carried,
  })
  .strict();
export type ProviderSignUpQuery = z.infer<typeof ProviderSignUpQuery>;

/** Where to go after signing in: a path of the web app (never another site). */
export const ReturnPath = z
  .string()
  .max(500)
  .regex(/^\/(?![/\\])[\w\-./?=&%~+#]*$/, 'must be a path of this site, such as /platforms');

export const ProviderLoginQuery = z.object({ returnTo: ReturnPath.optional() }).strict();
export type ProviderLoginQuery = z.infer<typeof ProviderLoginQuery>;

/**
 * What a provider sends back to a callback. Providers add parameters of their own (Google's authuser
 * and hd, Microsoft's session_state, QuickBooks' realmId), so unknown parameters are allowed here.
 */
export const ProviderCallbackQuery = z.looseObject({
  code: z.string().min(1).max(4096).optional(),
  state: z.string().min(1).max(512).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
  realmId: z
    .string()
    .regex(/^\d{1,30}$/, 'must be a QuickBooks company id')
    .optional(),
});
export type ProviderCallbackQuery = z.infer<typeof ProviderCallbackQuery>;

export const providerSignInMessages = {
  failed: 'There was an error logging in. Please try again.',
  cancelled: 'Signing in was cancelled.',
  expired: 'Signing in took too long. Please try again.',
  noEmail: 'Your account did not share an email address with us. Please register with your email instead.',
  unverifiedEmail:
    'Your email address is not verified by that provider. Please log in with your password instead.',
} as const;

export const connectMessages = {
  failed: (name: string) => `There was an error connecting ${name}. Please try again.`,
  cancelled: (name: string) => `Connecting ${name} was cancelled.`,
  notConfigured: (name: string) => `Connecting ${name} is not set up on this server. Please contact support.`,
  expired: 'The connection took too long or was started in another session. Please try again.',
} as const;
