import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ResetPasswordRequest } from '../../../contracts/auth';
import { isValidationError } from '../api/api-error';
import { serverTextOr, useServerErrors } from './use-server-errors';

export const passwordsDifferMessage = 'The passwords do not match.';
export const currentPasswordRequired = 'Current password is required';
const changeFailed = 'There was an error processing this request.';

/**
 * A password change as its form holds it (portal.md section 5): the request's rules for the new
 * password, a confirmation that must match, and the current password once the server asks for it.
 */
export const passwordChangeForm = (askCurrent: boolean) =>
  ResetPasswordRequest.extend({ confirmation: z.string(), currentPassword: z.string() })
    .refine((values) => values.confirmation === values.password, {
      path: ['confirmation'],
      message: passwordsDifferMessage,
    })
    .refine((values) => !askCurrent || values.currentPassword !== '', {
      path: ['currentPassword'],
      message: currentPasswordRequired,
    })
    .transform(({ password, currentPassword }): ResetPasswordRequest =>
      askCurrent ? { password, currentPassword } : { password },
    );

const emptyPasswordChange = { password: '', confirmation: '', currentPassword: '' };

/**
 * The password change of the reset page and the profile's Security tab: `change` sends the request;
 * a 422 naming currentPassword brings up that field with its error. `clearAfterChange` empties the
 * fields and forgets the current-password request once a change went through (a form that stays).
 */
export const usePasswordChangeForm = (
  change: (request: ResetPasswordRequest) => Promise<void>,
  options: { clearAfterChange?: boolean } = {},
) => {
  const [askCurrent, setAskCurrent] = useState(false);
  const form = useForm({
    resolver: zodResolver(passwordChangeForm(askCurrent)),
    defaultValues: emptyPasswordChange,
  });
  const serverErrors = useServerErrors(form, { failure: serverTextOr(changeFailed) });
  const submit = form.handleSubmit(async (request) => {
    try {
      await change(request);
      if (options.clearAfterChange) {
        form.reset(emptyPasswordChange);
        setAskCurrent(false);
      }
    } catch (error) {
      if (isValidationError(error) && error.properties.currentPassword) setAskCurrent(true);
      serverErrors.show(error);
    }
  });
  return { form, askCurrent, submit, message: serverErrors.message };
};
