import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useId, useState, type Ref } from 'react';
import { useController, useForm } from 'react-hook-form';
import type { Tenant } from '../../../../contracts/api/tenants';
import { tenantMessages } from '../../../../contracts/api/tenants';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { useServerErrors } from '../../forms/use-server-errors';
import { useUploadLogo } from '../../api/queries/tenants';
import { LogoForm, logoTypes } from './settings-rules';

type LogoPickerProps = {
  onFilesChange: (files: File[]) => void;
  error: string | undefined;
  /** Lets the form focus the picker when its choice is refused. */
  inputRef: Ref<HTMLInputElement>;
};

/** The labelled file input; its error is announced with it. */
const LogoPicker = ({ onFilesChange, error, inputRef }: LogoPickerProps) => {
  const inputId = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={inputId} className="block text-sm font-medium text-gray-700">
        Logo file (JPEG, PNG, GIF or SVG)
      </label>
      <input
        ref={inputRef}
        id={inputId}
        name="file"
        type="file"
        accept={logoTypes.join(',')}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${inputId}-error` : undefined}
        onChange={(event) => onFilesChange(Array.from(event.target.files ?? []))}
        className="block w-full text-sm focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
      />
      {error && (
        <p id={`${inputId}-error`} className="text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  );
};

/**
 * Logo upload (portal.md section 2.3): one jpeg, png, gif or svg file of at most 2 MB, sent on submit
 * (not on choice); a thank-you dialog says that staff review it, which may take up to a day.
 */
export const LogoUploadForm = ({ tenant, disabled }: { tenant: Tenant; disabled: boolean }) => {
  const uploadLogo = useUploadLogo();
  const form = useForm({ resolver: zodResolver(LogoForm), defaultValues: { file: [] } });
  const { field, fieldState } = useController({ control: form.control, name: 'file' });
  // The catalogue's text shows for every failure, beside a server error on the file itself.
  const serverErrors = useServerErrors(form, { failure: tenantMessages.logoFailed, alwaysSayFailure: true });
  const [thanked, setThanked] = useState(false);
  // A file input's choice can only be cleared on the element: a new key gives a fresh, empty one.
  const [pickerKey, setPickerKey] = useState(0);

  const submit = form.handleSubmit(async ({ file }) => {
    try {
      await uploadLogo.mutateAsync({ tenantId: tenant.Id, file });
      form.reset();
      setPickerKey((key) => key + 1);
      setThanked(true);
    } catch (error) {
      serverErrors.show(error);
    }
  });

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-label="Logo upload">
      <fieldset disabled={disabled} className="space-y-3">
        <ErrorCallout message={serverErrors.message} />
        <p className="text-sm text-gray-600">
          Your logo appears on your reports, scaled to 30 pixels high.
          {tenant.Logo.PendingURL ? ' A logo you uploaded is waiting for review.' : ''}
        </p>
        <LogoPicker
          key={pickerKey}
          inputRef={field.ref}
          onFilesChange={field.onChange}
          error={fieldState.error?.message}
        />
        <Button type="submit" loading={form.formState.isSubmitting}>
          Upload logo
        </Button>
      </fieldset>
      <ModalDialog open={thanked} title="Thank you for your logo" onClose={() => setThanked(false)}>
        <p className="text-sm text-gray-700">
          Our staff review every logo before it appears on reports; this may take up to a day. We will contact
          you once it has been reviewed.
        </p>
        <div className="flex justify-end">
          <Button type="button" onClick={() => setThanked(false)}>
            Close
          </Button>
        </div>
      </ModalDialog>
    </form>
  );
};
