import { useWatch } from 'react-hook-form';
import { passwordHint } from '../../../contracts/auth';
import { FormTextField } from './form-fields';
import type { usePasswordChangeForm } from './password-change-form';
import { PasswordStrengthMeter } from './password-strength-meter';

type PasswordChangeControl = ReturnType<typeof usePasswordChangeForm>['form']['control'];

/**
 * The fields of every password change (reset page, profile Security tab): the current password
 * when the server asks for it, the new one with its hint and strength meter, and its confirmation.
 */
export const NewPasswordFields = ({
  control,
  askCurrent,
}: {
  control: PasswordChangeControl;
  askCurrent: boolean;
}) => {
  const password = useWatch({ control, name: 'password' });
  return (
    <>
      {askCurrent && (
        <FormTextField
          control={control}
          name="currentPassword"
          label="Current password"
          type="password"
          autoComplete="current-password"
        />
      )}
      <FormTextField
        control={control}
        name="password"
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={passwordHint}
      />
      <PasswordStrengthMeter password={password} />
      <FormTextField
        control={control}
        name="confirmation"
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
      />
    </>
  );
};
