import { Button } from '@tremor/react';
import { useState } from 'react';
import type { SellerResponse } from '../../../../../contracts/api/sellers';
import { useAdminSeller, useUpdateSeller } from '../../../api/queries/admin-sellers';
import { ErrorCallout } from '../../../components/error-callout';
import { ModalDialog } from '../../../components/modal-dialog';
import { CheckboxField } from '../../../forms/checkbox-field';
import { TextField } from '../../../forms/text-field';
import { addExclusionTags, idListOf } from './exclusion-tags';

/** admin.md section 8 (Update Seller dialog). */
export const updateSellerFailed = 'There was an error while updating the seller.';

const booleanFlags = [
  { flag: 'customerSheet.showOtherCredits', label: 'Customer sheet: show other credits' },
  { flag: 'customerSheet.showSegmentation', label: 'Customer sheet: show segmentation' },
  { flag: 'crm.PushSalesRep', label: 'CRM: push sales rep' },
  { flag: 'forecasts.Receivables.Enabled', label: 'Forecasts: receivables enabled' },
] as const;
const listFlags = [
  { flag: 'exclusions.CustomerIds', label: 'Excluded customer ids' },
  { flag: 'exclusions.ProductIds', label: 'Excluded product ids' },
] as const;
type ListFlag = (typeof listFlags)[number]['flag'];

const flagValue = (seller: SellerResponse, flag: string): unknown =>
  seller.FeatureFlags?.find((entry) => entry.Flag === flag)?.Value;

/** One exclusion list: typed ids become tags (integers only, duplicates ignored), each removable. */
const TagInput = ({
  name,
  label,
  tags,
  onChange,
}: {
  name: string;
  label: string;
  tags: number[];
  onChange: (tags: number[]) => void;
}) => {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const add = () => {
    const result = addExclusionTags(tags, typed);
    setError(result.error ?? undefined);
    if (!result.error) {
      onChange(result.tags);
      setTyped('');
    }
  };
  return (
    <div className="space-y-2">
      <div className="flex items-end gap-2">
        <div
          className="flex-1"
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
        >
          <TextField name={name} label={label} value={typed} onValueChange={setTyped} error={error} />
        </div>
        <Button type="button" variant="secondary" onClick={add} aria-label={`Add to ${label}`}>
          Add
        </Button>
      </div>
      <ul className="flex flex-wrap gap-1" aria-label={`${label} added`}>
        {tags.map((id) => (
          <li
            key={id}
            className="inline-flex items-center gap-1 rounded-full bg-gray-100 px-2 py-0.5 text-xs text-gray-900"
          >
            {id}
            <button
              type="button"
              className="text-gray-700 hover:text-red-700"
              aria-label={`Remove ${id} from ${label}`}
              onClick={() => onChange(tags.filter((tag) => tag !== id))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
};

const EditForm = ({
  seller,
  onClose,
  onSaved,
}: {
  seller: SellerResponse;
  onClose: () => void;
  onSaved: () => void;
}) => {
  const update = useUpdateSeller();
  const [active, setActive] = useState(seller.Active);
  const [flags, setFlags] = useState<Record<string, boolean>>(() =>
    Object.fromEntries(booleanFlags.map(({ flag }) => [flag, flagValue(seller, flag) === true])),
  );
  const [lists, setLists] = useState<Record<ListFlag, number[]>>(() => ({
    'exclusions.CustomerIds': idListOf(flagValue(seller, 'exclusions.CustomerIds')),
    'exclusions.ProductIds': idListOf(flagValue(seller, 'exclusions.ProductIds')),
  }));
  const [failure, setFailure] = useState<string | null>(null);

  const save = async () => {
    setFailure(null);
    try {
      await update.mutateAsync({
        sellerId: seller.Id,
        body: {
          Active: active,
          FeatureFlags: [
            ...booleanFlags.map(({ flag }) => ({ Flag: flag, Value: flags[flag] === true })),
            ...listFlags.map(({ flag }) => ({ Flag: flag, Value: lists[flag] })),
          ],
        },
      });
      onSaved();
    } catch {
      setFailure(updateSellerFailed);
    }
  };

  return (
    <form
      noValidate
      className="space-y-4"
      aria-label="Update Seller"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <ErrorCallout message={failure} />
      <CheckboxField name="sellerActive" label="Active" checked={active} onCheckedChange={setActive} />
      <fieldset className="space-y-2">
        <legend className="text-sm font-semibold text-gray-900">Feature flags</legend>
        {booleanFlags.map(({ flag, label }) => (
          <CheckboxField
            key={flag}
            name={flag}
            label={label}
            checked={flags[flag] === true}
            onCheckedChange={(checked) => setFlags((current) => ({ ...current, [flag]: checked }))}
          />
        ))}
      </fieldset>
      {listFlags.map(({ flag, label }) => (
        <TagInput
          key={flag}
          name={flag}
          label={label}
          tags={lists[flag]}
          onChange={(tags) => setLists((current) => ({ ...current, [flag]: tags }))}
        />
      ))}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" loading={update.isPending}>
          Save
        </Button>
      </div>
    </form>
  );
};

/** The seller edit modal (admin.md section 2): Active and the feature flags (section 5: a seller update). */
export const SellerEditModal = ({
  sellerId,
  title,
  onClose,
  onSaved,
}: {
  sellerId: number;
  title: string;
  onClose: () => void;
  onSaved: () => void;
}) => {
  const seller = useAdminSeller(sellerId);
  return (
    <ModalDialog open title={title} onClose={onClose} width="wide">
      {seller.isError && <ErrorCallout message={seller.error.message} />}
      {!seller.data && !seller.isError && <p className="text-sm text-gray-600">Loading...</p>}
      {seller.data && <EditForm seller={seller.data} onClose={onClose} onSaved={onSaved} />}
    </ModalDialog>
  );
};
