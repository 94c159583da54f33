import { Button } from '@tremor/react';
import { useId, useRef, useState, type FormEvent } from 'react';
import type { Tenant } from '../../../../contracts/api/tenants';
import { tenantMessages } from '../../../../contracts/api/tenants';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { useUploadLogo } from '../../api/queries/tenants';
import { logoFileError, logoTypes } from './settings-rules';

/**
 * Logo upload (portal.md section 2.3): one jpeg, png, gif or svg file, sent on submit (not on choice);
 * a thank-you dialog says that staff review it, which may take up to a day.
 */
export const LogoUploadForm = ({ tenant, disabled }: { tenant: Tenant; disabled: boolean }) => {
  const uploadLogo = useUploadLogo();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [thanked, setThanked] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const problem = logoFileError(files);
    setFieldError(problem);
    if (problem || !files[0]) return;
    setUploading(true);
    try {
      await uploadLogo.mutateAsync({ tenantId: tenant.Id, file: files[0] });
      setFiles([]);
      if (input.current) input.current.value = '';
      setThanked(true);
    } catch {
      setFailure(tenantMessages.logoFailed);
    } finally {
      setUploading(false);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-label="Logo upload">
      <fieldset disabled={disabled} className="space-y-3">
        <ErrorCallout message={failure} />
        <p className="text-sm text-gray-600">
          Your logo appears on your reports, scaled to 30 pixels high.
          {tenant.Logo.PendingURL ? ' A logo you uploaded is waiting for review.' : ''}
        </p>
        <div className="space-y-1">
          <label htmlFor={inputId} className="block text-sm font-medium text-gray-700">
            Logo file (JPEG, PNG, GIF or SVG)
          </label>
          <input
            ref={input}
            id={inputId}
            name="file"
            type="file"
            accept={logoTypes.join(',')}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? `${inputId}-error` : undefined}
            onChange={(event) => {
              setFiles(Array.from(event.target.files ?? []));
              setFieldError(null);
            }}
            className="block w-full text-sm focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
          />
          {fieldError && (
            <p id={`${inputId}-error`} className="text-sm text-red-600">
              {fieldError}
            </p>
          )}
        </div>
        <Button type="submit" loading={uploading}>
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
