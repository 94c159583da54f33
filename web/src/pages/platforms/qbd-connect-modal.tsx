import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { QbdConfigRequest, type QbdConfigResponse } from '../../../../contracts/api/qbd';
import { useQbdConfig } from '../../api/queries/platforms';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { FormTextField } from '../../forms/form-fields';
import { useServerErrors } from '../../forms/use-server-errors';
import { saveFile } from '../../components/save-file';

/** portal.md section 9: the copy button waits 3 seconds, so the password is read before it is copied. */
export const copyDelayMs = 3000;
export const qbdGuideUrl = 'https://help.ledgerwise.example/quickbooks-desktop-web-connector';

/** The request's path rule (blank, or ending in .qbw); reinstalling the connector needs the path. */
const companyFilename = QbdConfigRequest.shape.companyFilename.unwrap();
const QbdForm = z.object({ companyFilename });
const QbdReinstallForm = z.object({
  companyFilename: companyFilename.min(1, 'The company file path is required to reinstall.'),
});

/** A failure no field shows: the API's text, else a generic one. */
const qbdFailureText = (error: unknown) => (error instanceof Error ? error.message : 'The operation failed.');

/** Saves the Web Connector file with the .qwc extension the Web Connector opens. */
const download = (config: QbdConfigResponse) => {
  const name = /\.qwc$/i.test(config.fileName) ? config.fileName : `${config.fileName}.qwc`;
  saveFile({ bytes: config.xml, contentType: 'application/xml', fileName: name });
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
  // The page mounts the modal afresh each time it opens, so `reinstall` is fixed for this form.
  const form = useForm({
    resolver: zodResolver(reinstall ? QbdReinstallForm : QbdForm),
    defaultValues: { companyFilename: '' },
  });
  const serverErrors = useServerErrors(form, { failure: qbdFailureText });
  const [password, setPassword] = useState<string | null>(null);

  const submit = form.handleSubmit(async ({ companyFilename: path }) => {
    try {
      const config = await qbdConfig.mutateAsync(path === '' ? {} : { companyFilename: path });
      save(config);
      setPassword(config.password);
    } catch (error) {
      serverErrors.show(error);
    }
  });

  const close = () => {
    setPassword(null);
    form.reset();
    onClose();
  };

  if (password !== null) return <OneTimePasswordModal password={password} onClose={close} />;
  return (
    <ModalDialog open={open} title="QuickBooks Desktop Web Connector" onClose={close}>
      <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <ErrorCallout message={serverErrors.message} />
        <FormTextField
          control={form.control}
          name="companyFilename"
          label="Company file path"
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
          <Button type="submit" loading={form.formState.isSubmitting}>
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
