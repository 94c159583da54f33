import { AppError } from '../contracts/errors';

/**
 * A bad form field: its name, a code the browser maps onto the field (`not_unique` shows "The email is
 * already in use."), and the message. Deciders collect every problem of a command before refusing it.
 */
export type FieldProblem = {
  field: string;
  code: 'required' | 'invalid' | 'not_unique' | 'out_of_range';
  message: string;
};

/** One validation error listing every bad field, so the form can mark them all at once. */
export const invalidFields = (problems: readonly FieldProblem[]): AppError =>
  new AppError('validation', problems.map((p) => p.message).join('\n'), {
    properties: Object.fromEntries(problems.map((p) => [p.field, p.code])),
  });

export const rejectInvalid = (problems: readonly FieldProblem[]): void => {
  if (problems.length > 0) throw invalidFields(problems);
};

/** Optional text fields: blank means absent. */
export const blankToNull = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};
