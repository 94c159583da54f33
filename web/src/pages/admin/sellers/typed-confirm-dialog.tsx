import { Button } from '@tremor/react';
import { useState, type ReactNode } from 'react';
import { ErrorCallout } from '../../../components/error-callout';
import { ModalDialog } from '../../../components/modal-dialog';
import { TextField } from '../../../forms/text-field';

/** admin.md section 4: what an aborted destructive confirmation says ("Cancelling clear queue request!"). */
export const cancellingText = (action: string) => `Cancelling ${action} request!`;

/** A typed confirmation counts when the word is typed exactly, spaces around it aside. */
export const isTypedWord = (typed: string, word: string): boolean => typed.trim() === word;

type TypedConfirmDialogProps = {
  title: string;
  message: ReactNode;
  /** The word of admin.md section 5 (delete, reset, purge, unlink, disconnect, clear); none: a plain confirm. */
  word?: string;
  confirmLabel: string;
  pending?: boolean;
  error?: string | null;
  onConfirm: () => void;
  /** Cancel, Escape or a click outside: the page says the request was cancelled. */
  onCancel: () => void;
};

/**
 * The confirmation of a destructive admin action: the action runs only once its word is typed
 * (admin.md section 5). Rendered only while open, so the typed word never outlives one confirmation.
 */
export const TypedConfirmDialog = (props: TypedConfirmDialogProps) => {
  const [typed, setTyped] = useState('');
  const confirmed = props.word === undefined || isTypedWord(typed, props.word);
  return (
    <ModalDialog open title={props.title} onClose={props.onCancel} role="alertdialog">
      <form
        noValidate
        className="space-y-4"
        aria-label={props.title}
        onSubmit={(event) => {
          event.preventDefault();
          if (confirmed && !props.pending) props.onConfirm();
        }}
      >
        <ErrorCallout message={props.error ?? null} />
        <div className="text-sm text-gray-700">{props.message}</div>
        {props.word !== undefined && (
          <TextField
            name="confirmWord"
            label={`Type ${props.word} to confirm`}
            value={typed}
            onValueChange={setTyped}
            autoComplete="off"
          />
        )}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={!confirmed || props.pending === true}>
            {props.confirmLabel}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
};
