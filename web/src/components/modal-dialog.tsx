import { Dialog, DialogPanel } from '@tremor/react';
import type { ReactNode } from 'react';

/** portal.md section 9: 500 wide (90% under 550 px screens); the welcome modal 600; user edit 800. */
const widths = {
  default: 'w-[90%] max-w-[500px] min-[550px]:w-full',
  welcome: 'w-full max-w-[600px]',
  /** The user edit modal: 800 wide, most of a narrower screen. */
  wide: 'w-[95%] max-w-[800px] sm:w-[90%]',
} as const;

type ModalDialogProps = {
  open: boolean;
  title: string;
  /** Escape and a click outside call it; without it the modal closes only from its own buttons. */
  onClose?: () => void;
  width?: keyof typeof widths;
  role?: 'dialog' | 'alertdialog';
  children: ReactNode;
};

/** A titled modal: focus moves into it and stays there until it closes (Headless UI through Tremor). */
export const ModalDialog = ({
  open,
  title,
  onClose,
  width = 'default',
  role,
  children,
}: ModalDialogProps) => {
  return (
    <Dialog
      open={open}
      onClose={() => onClose?.()}
      // Headless UI sets aria-labelledby only for its own DialogTitle, which Tremor does not export.
      aria-label={title}
      {...(role ? { role } : {})}
    >
      <DialogPanel className={widths[width]}>
        <h2 className="text-lg font-semibold text-gray-900">{title}</h2>
        <div className="mt-4 space-y-4">{children}</div>
      </DialogPanel>
    </Dialog>
  );
};
