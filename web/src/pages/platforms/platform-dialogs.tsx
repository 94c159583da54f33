import { Button } from '@tremor/react';
import { useState } from 'react';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';

/** After connecting (portal.md section 2.3): data is syncing, and for platforms the first report is on its way. */
export const ConnectedModal = ({
  name,
  platform,
  onClose,
}: {
  name: string;
  platform: boolean;
  onClose: () => void;
}) => (
  <ModalDialog open title="Connected" onClose={onClose}>
    <p className="text-sm text-gray-700">{name} is connected. Your data is syncing now.</p>
    {platform && (
      <p className="text-sm text-gray-700">
        Your first emailed report will arrive shortly (usually within 10 minutes).
      </p>
    )}
    <div className="flex justify-end">
      <Button type="button" onClick={onClose}>
        OK
      </Button>
    </div>
  </ModalDialog>
);

/** The error a connection redirect left in the address (?error=). */
export const ConnectErrorDialog = ({ message, onClose }: { message: string; onClose: () => void }) => (
  <ModalDialog open title="Connection failed" role="alertdialog" onClose={onClose}>
    <p className="text-sm text-gray-700">{message}</p>
    <div className="flex justify-end">
      <Button type="button" onClick={onClose}>
        Close
      </Button>
    </div>
  </ModalDialog>
);

export const disconnectTexts = {
  platform: 'Are you sure? You will need to contact Support to revert this action.',
  integration: 'Are you sure? The product will stop syncing data.',
} as const;

type ConfirmProps = { title: string; text: string; onConfirm: () => Promise<unknown>; onClose: () => void };

/** A disconnect confirmation; a failure shows inside it (portal.md section 8). */
export const ConfirmDisconnectModal = ({ title, text, onConfirm, onClose }: ConfirmProps) => {
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await onConfirm();
      onClose();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : 'The operation failed.');
      setBusy(false);
    }
  };
  return (
    <ModalDialog open title={title} role="alertdialog" onClose={onClose}>
      <p className="text-sm text-gray-700">{text}</p>
      <ErrorCallout message={failure} />
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="button" color="red" loading={busy} onClick={() => void confirm()}>
          Disconnect
        </Button>
      </div>
    </ModalDialog>
  );
};
