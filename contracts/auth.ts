import { z } from 'zod';

/** portal.md section 5: the password rule, its hint and its failure text, shared by the browser and the API. */
export const passwordHint =
  'At least 8 characters long, using numbers, lower case letters, and upper case letters.';
export const passwordRuleMessage = 'Your password does not meet the required criteria.';

export const Password = z
  .string({ error: 'Password is required' })
  .min(1, { error: 'Password is required', abort: true })
  .min(8, 'The supplied value is too short.')
  .max(128, passwordRuleMessage)
  .refine((value) => /\d/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value), passwordRuleMessage);

export const Email = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, { error: 'Email is required', abort: true })
  .email('Email is invalid');

/** POST /api/auth/login */
export const LoginRequest = z
  .object({
    email: Email,
    // Login never reveals the policy: any non-empty password is checked against the hash.
    password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
  })
  .strict();
export type LoginRequest = z.infer<typeof LoginRequest>;

/** POST /api/auth/resetPassword */
export const ResetPasswordRequest = z
  .object({ password: Password, currentPassword: z.string().max(1024).optional() })
  .strict();
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>;

/** POST /api/auth/recoverPassword */
export const RecoverPasswordRequest = z.object({ email: Email }).strict();

export const loginMessages = {
  invalidCredentials: 'Invalid credentials supplied.',
  tooManyAttempts: 'Too many login attempts. Please wait 30 minutes and try again.',
  tooManyRecoveries: 'Too many requests to reset the password. Please wait or contact support.',
} as const;

/** The method a user last signed in with, for the login page's reminder. */
export const LoginMethod = z.enum(['password', 'google', 'microsoft']);
export type LoginMethod = z.infer<typeof LoginMethod>;
