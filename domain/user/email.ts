import { z } from 'zod';

/**
 * The one normal form of an email address, used for uniqueness (users) and for invite stream ids:
 * the command layer must look addresses up in this form too.
 */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export const isValidEmail = (email: string): boolean => z.email().safeParse(email).success;
