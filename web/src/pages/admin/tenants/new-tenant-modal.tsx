import { Button } from '@tremor/react';
import { useState } from 'react';
import { z } from 'zod';
import type { Tenant } from '../../../../../contracts/api/tenants';
import { TenantClassification, UsageType } from '../../../../../contracts/events/tenant';
import { useAdminCreateTenant } from '../../../api/queries/admin-tenants';
import { ErrorCallout } from '../../../components/error-callout';
import { ModalDialog } from '../../../components/modal-dialog';
import { validate, type FormErrors } from '../../../forms/field-errors';
import { SelectField } from '../../../forms/select-field';
import { TextField } from '../../../forms/text-field';
import { classificationLabels, usageTypeLabels } from './tenant-rules';

/** admin.md section 5: a new tenant needs its name and usage type. */
export const newTenantMessages = {
  nameRequired: 'Please enter company name',
  usageTypeRequired: 'Please select a usage type',
  classificationRequired: 'Please select a classification',
  partnerNumber: 'Enter the partner number.',
  failed: 'There was an error while creating the tenant.',
} as const;

const blankToNull = (value: string) => (value.trim() === '' ? null : value.trim());

export const NewTenantForm = z.object({
  Name: z.string().trim().min(1, newTenantMessages.nameRequired).max(200),
  UsageType: z.enum(UsageType.options, { error: newTenantMessages.usageTypeRequired }),
  Classification: z.enum(TenantClassification.options, { error: newTenantMessages.classificationRequired }),
  PartnerId: z
    .string()
    .trim()
    .regex(/^([1-9]\d{0,9})?$/, newTenantMessages.partnerNumber)
    .transform((value) => (value === '' ? null : Number(value))),
  Referrer: z.string().max(200).transform(blankToNull),
  LandingPage: z.string().max(500).transform(blankToNull),
});

const emptyValues = {
  Name: '',
  UsageType: 'NORMAL',
  Classification: 'BUSINESS',
  PartnerId: '',
  Referrer: '',
  LandingPage: '',
};

const usageOptions = UsageType.options.map((value) => ({ value, label: usageTypeLabels[value] }));
const classificationOptions = TenantClassification.options.map((value) => ({
  value,
  label: classificationLabels[value],
}));

/** The admin tenants page's Add: a tenant the platform admin does not join. */
export const NewTenantModal = ({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (tenant: Tenant) => void;
}) => {
  const create = useAdminCreateTenant();
  const [values, setValues] = useState(emptyValues);
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const set = (field: keyof typeof emptyValues) => (value: string) =>
    setValues((current) => ({ ...current, [field]: value }));

  const submit = async () => {
    setFailure(null);
    const checked = validate(NewTenantForm, values);
    if ('errors' in checked) return setErrors(checked.errors);
    setErrors({});
    try {
      onCreated(await create.mutateAsync(checked.data));
    } catch (error) {
      setFailure(error instanceof Error && error.message ? error.message : newTenantMessages.failed);
    }
  };

  return (
    <ModalDialog open title="New Tenant" onClose={onClose}>
      <form
        noValidate
        aria-label="New Tenant"
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <ErrorCallout message={failure} />
        <TextField
          name="newTenantName"
          label="Name"
          value={values.Name}
          onValueChange={set('Name')}
          error={errors.Name}
        />
        <SelectField
          name="newTenantUsageType"
          label="Usage type"
          value={values.UsageType}
          options={usageOptions}
          onValueChange={set('UsageType')}
          error={errors.UsageType}
        />
        <SelectField
          name="newTenantClassification"
          label="Classification"
          value={values.Classification}
          options={classificationOptions}
          onValueChange={set('Classification')}
          error={errors.Classification}
        />
        <TextField
          name="newTenantPartnerId"
          label="Partner number"
          value={values.PartnerId}
          onValueChange={set('PartnerId')}
          error={errors.PartnerId}
        />
        <TextField
          name="newTenantReferrer"
          label="Referrer"
          value={values.Referrer}
          onValueChange={set('Referrer')}
        />
        <TextField
          name="newTenantLandingPage"
          label="Landing page"
          value={values.LandingPage}
          onValueChange={set('LandingPage')}
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
};
