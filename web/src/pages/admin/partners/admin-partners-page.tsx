import { Button, Card } from '@tremor/react';
import { useState, type FormEvent } from 'react';
import type { Partner } from '../../../../../contracts/api/partners';
import {
  useDownloadPartnerClientReport,
  usePartners,
  useSavePartner,
} from '../../../api/queries/admin-partners';
import { isValidationError } from '../../../api/api-error';
import { ErrorCallout, SuccessCallout } from '../../../components/error-callout';
import { ModalDialog } from '../../../components/modal-dialog';
import { ExternalLink } from '../../../components/text-link';
import { useTimedMessage } from '../../../components/use-timed-message';
import { TextField } from '../../../forms/text-field';
import type { DataColumn } from '../../../table/data-columns';
import { DataTable } from '../../../table/data-table';
import { tableTexts } from '../../../table/empty-texts';
import { PageFrame } from '../../dashboard/stat-card';
import { useDebouncedValue } from '../../sellers/use-debounced-value';

/** admin.md section 5: the partner form's server codes as the texts it shows. */
const fieldTexts: Record<string, Record<string, string>> = {
  Name: { not_unique: 'Name already exists within Tenant', required: 'Name is required' },
  ClientPlanIdentifier: { required: 'Client Plan is required' },
  TenantId: { required: 'Tenant Id is required', not_found: 'No tenant has this id' },
  LogoURL: { invalid: 'Logo URL must be an http or https address' },
};
const textOf = (field: string, code: string) => fieldTexts[field]?.[code] ?? code;

const failureText = (error: unknown) =>
  `There was an error: ${error instanceof Error ? error.message : String(error)}`;

type FormValues = { Name: string; ClientPlanIdentifier: string; TenantId: string; LogoURL: string };
type FormErrors = Partial<Record<keyof FormValues, string>>;

/** The partner form (admin.md sections 2 and 5): Name and Client Plan always, the tenant when adding. */
const PartnerForm = ({
  partner,
  onClose,
  onSaved,
}: {
  partner: Partner | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}) => {
  const save = useSavePartner();
  const [values, setValues] = useState<FormValues>({
    Name: partner?.Name ?? '',
    ClientPlanIdentifier: partner?.ClientPlanIdentifier ?? 'free_client',
    TenantId: partner ? String(partner.TenantId) : '',
    LogoURL: partner?.LogoURL ?? '',
  });
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const set = (field: keyof FormValues) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: FormErrors = {};
    if (!values.Name.trim()) found.Name = textOf('Name', 'required');
    if (!values.ClientPlanIdentifier.trim())
      found.ClientPlanIdentifier = textOf('ClientPlanIdentifier', 'required');
    if (!partner && !/^\d{1,10}$/.test(values.TenantId.trim()))
      found.TenantId = textOf('TenantId', 'required');
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    const logo = values.LogoURL.trim() || null;
    try {
      if (partner)
        await save.mutateAsync({
          kind: 'update',
          tenantId: partner.TenantId,
          body: {
            Id: partner.Id,
            Name: values.Name.trim(),
            ClientPlanIdentifier: values.ClientPlanIdentifier.trim(),
            LogoURL: logo,
          },
        });
      else
        await save.mutateAsync({
          kind: 'create',
          body: {
            Name: values.Name.trim(),
            ClientPlanIdentifier: values.ClientPlanIdentifier.trim(),
            TenantId: Number(values.TenantId.trim()),
            LogoURL: logo,
          },
        });
      onSaved(partner ? 'Successfully updated the partner.' : 'Successfully added the partner.');
    } catch (error) {
      if (isValidationError(error)) {
        const fromServer: FormErrors = {};
        for (const [field, code] of Object.entries(error.properties))
          if (field in values) fromServer[field as keyof FormValues] = textOf(field, String(code));
        setErrors(fromServer);
        if (Object.keys(fromServer).length > 0) return;
      }
      setFailure(failureText(error));
    }
  };

  return (
    <ModalDialog open title={partner ? 'Edit Partner' : 'Add Partner'} onClose={onClose}>
      <form noValidate className="space-y-4" aria-label="Partner" onSubmit={(event) => void submit(event)}>
        <ErrorCallout message={failure} />
        <TextField
          name="Name"
          label="Name"
          value={values.Name}
          onValueChange={set('Name')}
          error={errors.Name}
        />
        <TextField
          name="ClientPlanIdentifier"
          label="Client Plan"
          value={values.ClientPlanIdentifier}
          onValueChange={set('ClientPlanIdentifier')}
          error={errors.ClientPlanIdentifier}
          hint="The plan identifier new clients of the partner get, such as free_client."
        />
        {!partner && (
          <TextField
            name="TenantId"
            label="Tenant Id"
            value={values.TenantId}
            onValueChange={set('TenantId')}
            error={errors.TenantId}
          />
        )}
        <TextField
          name="LogoURL"
          label="Logo URL"
          value={values.LogoURL}
          onValueChange={set('LogoURL')}
          error={errors.LogoURL}
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
};

/**
 * /admin/partners (admin.md section 2): every partner with its tenant, client plan, client count and
 * logo; search, Reset Filters, Add and edit through the partner form, the Client report download.
 */
export const AdminPartnersPage = () => {
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput, 300);
  const partners = usePartners(search);
  const download = useDownloadPartnerClientReport();
  const [editing, setEditing] = useState<Partner | 'new' | null>(null);
  const [notice, setNotice] = useTimedMessage();
  const [failure, setFailure] = useState<string | null>(null);

  const columns: DataColumn<Partner>[] = [
    { id: 'Id', header: 'Id', value: (row) => row.Id, sortable: true },
    { id: 'TenantId', header: 'TenantId', value: (row) => row.TenantId, sortable: true },
    {
      id: 'Tenant',
      header: 'Tenant',
      value: (row) => row.Tenant.Name ?? '',
      sortable: true,
      hideOnMobile: true,
    },
    { id: 'Name', header: 'Name', value: (row) => row.Name, sortable: true },
    { id: 'ClientPlan', header: 'Client Plan', value: (row) => row.ClientPlanIdentifier, hideOnMobile: true },
    { id: 'Clients', header: 'Clients', value: (row) => row.Clients, sortable: true, align: 'end' },
    {
      id: 'LogoURL',
      header: 'LogoURL',
      value: (row) => row.LogoURL,
      hideOnMobile: true,
      cell: (row) =>
        row.LogoURL ? (
          <ExternalLink href={row.LogoURL} target="_blank" rel="noreferrer">
            {row.LogoURL.length > 40 ? `${row.LogoURL.slice(0, 40)}…` : row.LogoURL}
          </ExternalLink>
        ) : null,
    },
    {
      id: 'Logo',
      header: 'Logo',
      hideOnMobile: true,
      cell: (row) =>
        row.LogoURL ? (
          <img src={row.LogoURL} alt={`${row.Name} logo`} className="h-8 max-w-[120px] object-contain" />
        ) : null,
    },
  ];

  return (
    <PageFrame title="Partners">
      <SuccessCallout message={notice} />
      <ErrorCallout message={failure} />
      <Card>
        {partners.data && (
          <p className="mb-3 text-sm text-gray-700">
            Total: {partners.data.total}, Filtered: {partners.data.filtered}
          </p>
        )}
        <DataTable
          label="Partners"
          data={partners.isError ? [] : partners.data?.rows}
          columns={columns}
          getRowId={(row) => String(row.Id)}
          emptyText={tableTexts.noData}
          noMatchText="No partners match the search."
          filtered={search.trim() !== ''}
          initialSort={{ id: 'Id', desc: true }}
          toolbar={
            <Button type="button" onClick={() => setEditing('new')}>
              Add
            </Button>
          }
          filters={
            <>
              <TextField
                name="partnerSearch"
                label="Search"
                value={searchInput}
                onValueChange={setSearchInput}
              />
              <Button type="button" variant="light" onClick={() => setSearchInput('')}>
                Reset Filters
              </Button>
            </>
          }
          rowActions={(row) => (
            <div className="flex gap-1">
              <Button
                size="xs"
                variant="secondary"
                aria-label={`Edit ${row.Name}`}
                onClick={() => setEditing(row)}
              >
                Edit
              </Button>
              {row.Clients > 0 && (
                <Button
                  size="xs"
                  variant="secondary"
                  aria-label={`Client report of ${row.Name}`}
                  loading={download.isPending && download.variables === row.TenantId}
                  onClick={() => {
                    setFailure(null);
                    download.mutate(row.TenantId, { onError: (error) => setFailure(failureText(error)) });
                  }}
                >
                  Client report
                </Button>
              )}
            </div>
          )}
        />
      </Card>
      {editing !== null && (
        <PartnerForm
          partner={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(message) => {
            setEditing(null);
            setNotice(message);
          }}
        />
      )}
    </PageFrame>
  );
};
