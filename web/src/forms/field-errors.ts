import type { ZodType } from 'zod';
import type { FieldErrors } from '../../../contracts/errors';

export type FormErrors = Record<string, string>;

/** Client-side checks with the same zod schema the API uses, so the browser and server agree. */
export const validate = <T>(schema: ZodType<T>, values: unknown): { data: T } | { errors: FormErrors } => {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { data: parsed.data };
  const errors: FormErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.join('.');
    errors[field] ??= issue.message;
  }
  return { errors };
};

/** Codes the server sends in `properties` (portal.md section 5), as the texts shown under a field. */
const serverCodeTexts: Record<string, string> = {
  not_unique: 'The email is already in use.',
  len: 'The supplied value is too short.',
  required: 'This field is required.',
  invalid: 'This value is not valid.',
};

/** Server field errors shown against the matching fields; `body.email` style keys match `email`. */
export const formErrorsOf = (properties: FieldErrors): FormErrors => {
  const errors: FormErrors = {};
  for (const [key, value] of Object.entries(properties)) {
    errors[key.replace(/^body\./, '')] = serverCodeTexts[value] ?? value;
  }
  return errors;
};

/**
 * Whether a server field error names no field the form shows: then the form must say the message
 * itself, or the person is left with a button that does nothing.
 */
export const hasUnshownErrors = (errors: FormErrors, shownFields: readonly string[]): boolean =>
  Object.keys(errors).some((key) => !shownFields.includes(key));
