import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { ApiError, isValidationError } from '../api/api-error';
import { formErrorsOf } from './field-errors';

/** What a form says above its fields when a submit fails for a reason no field shows. */
export type FailureText = string | ((error: unknown) => string);

/** The server's own text when it sent an ApiError (already safe to show), else the form's fallback. */
export const serverTextOr =
  (fallback: string): FailureText =>
  (error) =>
    error instanceof ApiError ? error.message : fallback;

export type ServerErrorOptions<T extends FieldValues> = {
  failure: FailureText;
  /**
   * The fields the form shows now; a server error on any other name becomes the form's message, or
   * the person would be left with a button that does nothing. Defaults to the form's default values.
   */
  shownFields?: readonly Path<T>[];
  /** Server property names that the form shows under another field (`Industry.FreeForm` as `Industry`). */
  aliases?: Partial<Record<string, Path<T>>>;
  /** Say the failure text even when every server error sits on a field (the catalogue asks so for some modals). */
  alwaysSayFailure?: boolean;
};

/** The key of the form-level message in react-hook-form's errors (root errors clear on the next submit). */
const formMessageKey = 'root.server';

const textOf = (failure: FailureText, error: unknown) =>
  typeof failure === 'string' ? failure : failure(error);

/**
 * The one place a failed submit reaches the screen (portal.md sections 5 and 7): a 422's `properties`
 * against the fields they name (server codes as the spec's texts, the first one focused), and a
 * form-level message for a failure no shown field carries.
 */
export const showServerErrors = <T extends FieldValues, C, R extends FieldValues>(
  form: UseFormReturn<T, C, R>,
  error: unknown,
  options: ServerErrorOptions<T>,
) => {
  const shown = new Set<string>(options.shownFields ?? Object.keys(form.formState.defaultValues ?? {}));
  let unshown = !isValidationError(error) || Object.keys(error.properties).length === 0;
  if (isValidationError(error)) {
    let first = true;
    for (const [name, text] of Object.entries(formErrorsOf(error.properties))) {
      const field = options.aliases?.[name] ?? name;
      if (!shown.has(field)) {
        unshown = true;
        continue;
      }
      form.setError(field as Path<T>, { type: 'server', message: text }, { shouldFocus: first });
      first = false;
    }
  }
  if (unshown || options.alwaysSayFailure)
    form.setError(formMessageKey, { type: 'server', message: textOf(options.failure, error) });
};

/** `show` for a submit's catch, and the form-level `message` to render above the fields. */
export const useServerErrors = <T extends FieldValues, C, R extends FieldValues>(
  form: UseFormReturn<T, C, R>,
  options: ServerErrorOptions<T>,
) => ({
  show: (error: unknown) => showServerErrors(form, error, options),
  message: form.formState.errors.root?.server?.message ?? null,
});
