import { Button } from '@tremor/react';
import { useEffect, useState, type FormEvent } from 'react';
import { QbdConfigRequest, type QbdConfigResponse } from '../../../../contracts/api/qbd';
import { isValidationError } from '../../api/api-error';
import { useQbdConfig } from '../../api/queries/platforms';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { formErrorsOf, validate, type FormErrors } from '../../forms/field-errors';
import { TextField } from '../../forms/text-field';

/** portal.md section 9: the copy button waits 3 seconds, so the password is read before it is copied. */
export const copyDelayMs = 3000;
export const qbdGuideUrl = 'https://help.ledgerwise.example/quickbooks-desktop-web-connector';

/** Saves the Web Connector file with the .qwc extension the Web Connector opens. */
const download = (config: QbdConfigResponse) => {
  const name = /\.qwc$/i.test(config.fileName) ? config.fileName : `${config.fileName}.qwc`;
  const url = URL.createObjectURL(new Blob([config.xml], { type: 'application/xml' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
};

type Props = {
  open: boolean;
  /** Reinstalling the connector needs the path (portal.md section 5). */
  reinstall: boolean;
  onClose: () => void;
  /** Triggers the browser download; tests record it. */
  save?: (config: QbdConfigResponse) => void;
};

/** The QuickBooks Desktop Web Connector file: an optional company file path, then the one-time password. */
export const QbdConnectModal = ({ open, reinstall, onClose, save = download }: Props) => {
  const qbdConfig = useQbdConfig();
  const [path, setPath] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [password, setPassword] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (reinstall && path.trim() === '')
      return setErrors({ companyFilename: 'The company file path is required to reinstall.' });
    const checked = validate(QbdConfigRequest, { companyFilename: path });
    if ('errors' in checked) return setErrors(checked.errors);
    setErrors({});
    setLoading(true);
    try {
      const config = await qbdConfig.mutateAsync(path.trim() === '' ? {} : { companyFilename: path.trim() });
      save(config);
      setPassword(config.password);
    } catch (error) {
      if (isValidationError(error)) setErrors(formErrorsOf(error.properties));
      else setFailure(error instanceof Error ? error.message : 'The operation failed.');
    } finally {
      setLoading(false);
    }
  };

  const close = () => {
    setPassword(null);
    setPath('');
    onClose();
  };

  if (password !== null) return <OneTimePasswordModal password={password} onClose={close} />;
  return (
    <ModalDialog open={open} title="QuickBooks Desktop Web Connector" onClose={close}>
      <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <ErrorCallout message={failure} />
        <TextField
          name="companyFilename"
          label="Company file path"
          value={path}
          onValueChange={setPath}
          error={errors.companyFilename}
          hint={
            reinstall
              ? 'The full path of the company file, ending in .qbw.'
              : 'Needed only when several companies are on the computer; ends in .qbw.'
          }
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" loading={loading}>
            Download Web Connector file
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
};

/** The one-time password, shown once; only its own button closes it (not a click outside). */
export const OneTimePasswordModal = ({ password, onClose }: { password: string; onClose: () => void }) => {
  const [canCopy, setCanCopy] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setCanCopy(true), copyDelayMs);
    return () => clearTimeout(timer);
  }, []);
  const copy = async () => {
    await navigator.clipboard?.writeText(password).catch(() => undefined);
    setCopied(true);
  };
  return (
    <ModalDialog open title="Your Web Connector password">
      <p className="text-sm text-gray-700">
        Open the downloaded file with the QuickBooks Web Connector, then enter this password. It is shown only
        once.
      </p>
      <p className="break-all rounded bg-gray-100 px-3 py-2 font-mono text-base" data-testid="qbd-password">
        {password}
      </p>
      <a href={qbdGuideUrl} target="_blank" rel="noreferrer" className="text-sm text-blue-700 underline">
        Connection guide
      </a>
      <div className="flex justify-end gap-2" aria-live="polite">
        <Button type="button" variant="secondary" disabled={!canCopy} onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy password'}
        </Button>
        <Button type="button" onClick={onClose}>
          Done
        </Button>
      </div>
    </ModalDialog>
  );
};
