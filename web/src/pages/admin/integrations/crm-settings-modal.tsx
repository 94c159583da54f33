import { Button } from '@tremor/react';
import { useState } from 'react';
import type { IntegrationResponse } from '../../../../../contracts/api/integrations';
import { CrmSettings } from '../../../../../contracts/events/integration';
import { useIntegrationAction } from '../../../api/queries/admin-integrations';
import { ErrorCallout } from '../../../components/error-callout';
import { ModalDialog } from '../../../components/modal-dialog';
import { CheckboxField } from '../../../forms/checkbox-field';
import { TextField } from '../../../forms/text-field';

const booleanSettings = Object.entries(CrmSettings.shape)
  .filter(([name]) => name !== 'AccountingIdentifier')
  .map(([name]) => name as Exclude<keyof CrmSettings, 'AccountingIdentifier'>);

/** Splits `MatchUsingNamesExact` into words for its label. */
const labelOf = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2');

/**
 * The edit of an admin integrations row: a CRM account's settings (admin.md section 3), sent as one
 * PATCH with only what changed. Cloud accounts have no settings but Locked, which the row toggles.
 */
export const CrmSettingsModal = ({
  account,
  title,
  onClose,
  onSaved,
}: {
  account: IntegrationResponse;
  title: string;
  onClose: () => void;
  onSaved: () => void;
}) => {
  const action = useIntegrationAction();
  const initial = account.Settings;
  const [values, setValues] = useState<Record<string, boolean | string | null>>(() => ({ ...initial }));
  const [failure, setFailure] = useState<string | null>(null);
  const isCrm = booleanSettings.some((name) => name in initial);

  const save = async () => {
    const changed = Object.fromEntries(
      Object.entries(values).filter(([name, value]) => name !== 'Locked' && value !== initial[name]),
    ) as Partial<CrmSettings>;
    if (Object.keys(changed).length === 0) {
      onClose();
      return;
    }
    setFailure(null);
    try {
      await action.mutateAsync({ kind: 'settings', id: account.Id, settings: changed });
      onSaved();
    } catch (error) {
      setFailure(`There was an error: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  return (
    <ModalDialog open title={title} onClose={onClose} width="wide">
      <form
        noValidate
        className="space-y-4"
        aria-label={title}
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <ErrorCallout message={failure} />
        {!isCrm && <p className="text-sm text-gray-700">This account has no settings besides Locked.</p>}
        {isCrm && (
          <>
            <div className="grid gap-2 sm:grid-cols-2">
              {booleanSettings.map((name) => (
                <CheckboxField
                  key={name}
                  name={name}
                  label={labelOf(name)}
                  checked={values[name] === true}
                  onCheckedChange={(checked) => setValues((current) => ({ ...current, [name]: checked }))}
                />
              ))}
            </div>
            <TextField
              name="AccountingIdentifier"
              label="Accounting identifier property"
              value={typeof values.AccountingIdentifier === 'string' ? values.AccountingIdentifier : ''}
              onValueChange={(value) =>
                setValues((current) => ({
                  ...current,
                  AccountingIdentifier: value.trim() === '' ? null : value,
                }))
              }
            />
          </>
        )}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={action.isPending} disabled={!isCrm}>
            Save
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
};
