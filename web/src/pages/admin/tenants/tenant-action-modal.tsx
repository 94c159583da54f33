import { Button } from '@tremor/react';
import { useState } from 'react';
import { DisableReason } from '../../../../../contracts/events/tenant';
import { useTenantAction, type TenantAction, type TenantListRow } from '../../../api/queries/admin-tenants';
import { ErrorCallout } from '../../../components/error-callout';
import { ModalDialog } from '../../../components/modal-dialog';
import { CheckboxField } from '../../../forms/checkbox-field';
import { SelectField } from '../../../forms/select-field';
import { TextField } from '../../../forms/text-field';
import { confirmWords, dangerSubmitClasses, disableReasonLabels, isConfirmed } from './tenant-rules';

export type TenantActionKind = TenantAction['kind'];

const reasonOptions = DisableReason.options.map((reason) => ({
  value: reason,
  label: disableReasonLabels[reason],
}));

const titles: Record<TenantActionKind, string> = {
  disable: 'Disable Tenant',
  restore: 'Restore Tenant',
  purge: 'Purge Tenant',
};

const failureText = (error: unknown) =>
  `There was an error: ${error instanceof Error ? error.message : String(error)}`;

type TenantActionModalProps = {
  tenant: Pick<TenantListRow, 'Id' | 'Name'>;
  kind: TenantActionKind;
  onClose: () => void;
  onDone: (message: string) => void;
};

/**
 * Disable (with a reason), Restore and Purge of one tenant. Disable and purge need their typed word
 * (admin.md section 5: disable; purge, plus permanent to remove it for good).
 */
export const TenantActionModal = ({ tenant, kind, onClose, onDone }: TenantActionModalProps) => {
  const action = useTenantAction();
  const [reason, setReason] = useState('');
  const [typed, setTyped] = useState('');
  const [permanent, setPermanent] = useState(false);
  const [typedPermanent, setTypedPermanent] = useState('');
  const [failure, setFailure] = useState<string | null>(null);

  const confirmed =
    kind === 'restore' ||
    (kind === 'disable' && isConfirmed(typed, confirmWords.disable)) ||
    (kind === 'purge' &&
      isConfirmed(typed, confirmWords.purge) &&
      (!permanent || isConfirmed(typedPermanent, confirmWords.permanent)));

  const submit = async () => {
    if (!confirmed) return;
    setFailure(null);
    const request: TenantAction =
      kind === 'disable'
        ? {
            kind,
            tenantId: tenant.Id,
            reason: reason === '' ? null : DisableReason.parse(reason),
          }
        : kind === 'purge'
          ? { kind, tenantId: tenant.Id, permanent }
          : { kind, tenantId: tenant.Id };
    try {
      await action.mutateAsync(request);
      const done = { disable: 'disabled', restore: 'restored', purge: 'purged' }[kind];
      onDone(`${tenant.Name} (${tenant.Id}) was ${done}.`);
    } catch (error) {
      setFailure(failureText(error));
    }
  };

  return (
    <ModalDialog open title={titles[kind]} onClose={onClose}>
      <form
        noValidate
        className="space-y-4"
        aria-label={titles[kind]}
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <ErrorCallout message={failure} />
        {kind === 'disable' && (
          <>
            <p className="text-sm text-gray-700">
              {tenant.Name} ({tenant.Id}) and its users lose access until it is restored.
            </p>
            <SelectField
              name="disableReason"
              label="Reason"
              value={reason}
              blankLabel="No reason given"
              options={reasonOptions}
              onValueChange={setReason}
            />
            <TextField
              name="confirmDisable"
              label={`Type ${confirmWords.disable} to confirm`}
              value={typed}
              onValueChange={setTyped}
              autoComplete="off"
            />
          </>
        )}
        {kind === 'restore' && (
          <p className="text-sm text-gray-700">
            {tenant.Name} ({tenant.Id}) and its users get their access back.
          </p>
        )}
        {kind === 'purge' && (
          <>
            <p className="text-sm text-gray-700">
              The personal data, connector secrets, logos, synced ledger and archived reports of {tenant.Name}{' '}
              ({tenant.Id}) are removed. This cannot be undone.
            </p>
            <TextField
              name="confirmPurge"
              label={`Type ${confirmWords.purge} to confirm`}
              value={typed}
              onValueChange={setTyped}
              autoComplete="off"
            />
            <CheckboxField
              name="purgePermanent"
              label="Remove the tenant's record permanently"
              checked={permanent}
              onCheckedChange={setPermanent}
            />
            {permanent && (
              <TextField
                name="confirmPermanent"
                label={`Type ${confirmWords.permanent} to remove it permanently`}
                value={typedPermanent}
                onValueChange={setTypedPermanent}
                autoComplete="off"
              />
            )}
          </>
        )}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          {kind === 'restore' ? (
            <Button type="submit" loading={action.isPending}>
              Restore
            </Button>
          ) : (
            <button type="submit" className={dangerSubmitClasses} disabled={!confirmed || action.isPending}>
              {titles[kind].split(' ')[0]}
            </button>
          )}
        </div>
      </form>
    </ModalDialog>
  );
};
