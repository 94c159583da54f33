import { passwordHint } from '../../../contracts/auth';
import type { FormErrors } from './field-errors';
import { PasswordStrengthMeter } from './password-strength-meter';
import { TextField } from './text-field';

export type NewPasswordValues = { password: string; confirmation: string; currentPassword: string };

/**
 * The fields of every password change (reset page, profile Security tab): the current password
 * when the server asks for it, the new one with its hint and strength meter, and its confirmation.
 */
export const NewPasswordFields = ({
  values,
  errors,
  askCurrent,
  onChange,
}: {
  values: NewPasswordValues;
  errors: FormErrors;
  askCurrent: boolean;
  onChange: (field: keyof NewPasswordValues) => (value: string) => void;
}) => (
  <>
    {askCurrent && (
      <TextField
        name="currentPassword"
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={values.currentPassword}
        onValueChange={onChange('currentPassword')}
        error={errors.currentPassword}
      />
    )}
    <TextField
      name="password"
      label="New password"
      type="password"
      autoComplete="new-password"
      value={values.password}
      onValueChange={onChange('password')}
      error={errors.password}
      hint={passwordHint}
    />
    <PasswordStrengthMeter password={values.password} />
    <TextField
      name="confirmation"
      label="Confirm new password"
      type="password"
      autoComplete="new-password"
      value={values.confirmation}
      onValueChange={onChange('confirmation')}
      error={errors.confirmation}
    />
  </>
);
