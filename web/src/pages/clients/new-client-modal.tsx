import { Button } from '@tremor/react';
import { useState, type FormEvent } from 'react';
import { tenantMessages } from '../../../../contracts/api/tenants';
import type { BusinessModel } from '../../../../contracts/events/tenant';
import { ApiError, isValidationError } from '../../api/api-error';
import { useIndustries } from '../../api/queries/industries';
import { useCreateTenant } from '../../api/queries/tenants';
import { errorCatalogue } from '../../api/error-catalogue';
import { ErrorCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { formErrorsOf, type FormErrors } from '../../forms/field-errors';
import { SelectField } from '../../forms/select-field';
import { TextField } from '../../forms/text-field';
import { useAppServices } from '../../session/app-services-context';
import { switchToTenant } from '../../session/session-actions';
import { IndustryField } from '../welcome/industry-field';

export const newClientMessages = {
  nameRequired: 'Please enter company name',
  industryRequired: tenantMessages.industryRequired,
  classificationRequired: tenantMessages.classificationRequired,
} as const;

type Values = { Name: string; Industry: string; BusinessModel: BusinessModel | '' };

/** portal.md section 5, new client: company name, industry and business model are required. */
export const newClientErrors = (values: Values): FormErrors => {
  const errors: FormErrors = {};
  if (!values.Name.trim()) errors.Name = newClientMessages.nameRequired;
  if (!values.Industry.trim()) errors['Industry.FreeForm'] = newClientMessages.industryRequired;
  if (values.BusinessModel === '') errors.BusinessModel = newClientMessages.classificationRequired;
  return errors;
};

const empty: Values = { Name: '', Industry: '', BusinessModel: '' };

/**
 * New client: Enter submits (it is a form); once created, the current company becomes the new client
 * and the user goes to /overview.
 */
export const NewClientModal = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const services = useAppServices();
  const createTenant = useCreateTenant();
  const industries = useIndustries('NAICS2017');
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = (field: keyof Values) => (value: string) =>
    setValues((current) => ({ ...current, [field]: value }));

  const close = () => {
    setValues(empty);
    setErrors({});
    setFailure(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found = newClientErrors(values);
    setErrors(found);
    if (Object.keys(found).length > 0 || values.BusinessModel === '') return;
    const freeForm = values.Industry.trim();
    const chosen = industries.data?.find((industry) => industry.Title === freeForm);
    setSaving(true);
    try {
      const created = await createTenant.mutateAsync({
        Name: values.Name.trim(),
        Classification: 'BUSINESS',
        BusinessModel: values.BusinessModel,
        Industry: {
          FreeForm: freeForm,
          NAICS2017: chosen?.Code ?? null,
          Description: chosen?.Description ?? null,
        },
      });
      await switchToTenant(services, { tenantId: created.Id, to: '/overview' });
    } catch (error) {
      if (isValidationError(error)) setErrors(formErrorsOf(error.properties));
      setFailure(error instanceof ApiError ? error.message : errorCatalogue.default);
      setSaving(false);
    }
  };

  return (
    <ModalDialog open={open} title="Add client" onClose={close}>
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4" aria-label="Add client">
        <ErrorCallout message={failure} />
        <TextField
          name="Name"
          label="Company name"
          value={values.Name}
          onValueChange={set('Name')}
          error={errors.Name}
        />
        <IndustryField
          value={values.Industry}
          onValueChange={set('Industry')}
          industries={industries.data ?? []}
          error={errors['Industry.FreeForm']}
        />
        <SelectField
          name="BusinessModel"
          label="Business model"
          value={values.BusinessModel}
          onValueChange={set('BusinessModel')}
          options={[
            { value: 'B2B', label: 'B2B' },
            { value: 'HYBRID', label: 'Hybrid' },
            { value: 'B2C', label: 'B2C' },
          ]}
          blankLabel=""
          error={errors.BusinessModel ?? errors.Classification}
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            Add client
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
};
