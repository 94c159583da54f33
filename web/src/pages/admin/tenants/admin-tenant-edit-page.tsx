import { Card } from '@tremor/react';
import { useParams } from 'react-router';
import { useAdminTenant } from '../../../api/queries/admin-tenants';
import { ErrorCallout } from '../../../components/error-callout';
import { TextLink } from '../../../components/text-link';
import { tableTexts } from '../../../table/empty-texts';
import { PageFrame } from '../../dashboard/stat-card';
import { TenantEditTabs } from './tenant-edit-tabs';

/** The tenant id of the path, or null when it is not one. */
export const tenantIdOfParam = (param: string | undefined): number | null =>
  param && /^[1-9]\d{0,9}$/.test(param) ? Number(param) : null;

const EditTenant = ({ tenantId }: { tenantId: number }) => {
  const tenant = useAdminTenant(tenantId);
  if (tenant.isError) return <ErrorCallout message={tenant.error.message} />;
  if (!tenant.data) return <p role="status">{tableTexts.loading}</p>;
  return (
    <Card>
      <h2 className="mb-4 text-lg font-medium text-gray-900">
        {tenant.data.Name} ({tenant.data.Id})
      </h2>
      <TenantEditTabs tenant={tenant.data} />
    </Card>
  );
};

/** /admin/tenants/{tenantId}: the tenant edit as a page. */
export const AdminTenantEditPage = () => {
  const tenantId = tenantIdOfParam(useParams().tenantId);
  return (
    <PageFrame title="Edit Tenant">
      <p className="text-sm">
        <TextLink to="/admin/tenants">Back to tenants</TextLink>
        {tenantId !== null && (
          <>
            {' · '}
            <TextLink to={`/admin/tenants/${tenantId}/audit`}>Audit history</TextLink>
          </>
        )}
      </p>
      {tenantId === null ? <ErrorCallout message="Tenant not found." /> : <EditTenant tenantId={tenantId} />}
    </PageFrame>
  );
};
