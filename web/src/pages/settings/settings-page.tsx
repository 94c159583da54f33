import { Callout, Card } from '@tremor/react';
import { Link } from 'react-router';
import { useTenant } from '../../api/queries/tenants';
import { ErrorCallout } from '../../components/error-callout';
import { factsOf } from '../../session/session-facts';
import { useSession } from '../../session/session-query';
import { tableTexts } from '../../table/empty-texts';
import { BillingSection } from './billing-section';
import { CompanySettingsForm } from './company-settings-form';
import { LogoUploadForm } from './logo-upload-form';
import { PlatformAdminSettingsForm } from './platform-admin-settings-form';
import { ReportingSettingsForm } from './reporting-settings-form';
import { companyMessages } from './settings-rules';

/**
 * /settings (tenant admin): company or firm settings, reporting settings and the logo. A demo tenant
 * sees them disabled (portal.md section 2.3), billing included.
 */
export const SettingsPage = () => {
  const session = useSession();
  const facts = factsOf(session);
  const tenant = useTenant();
  const title = facts.isFirm ? 'Firm settings' : 'Company settings';

  if (tenant.isError) return <ErrorCallout message={tenant.error.message} />;
  if (!tenant.data) return <p role="status">{tableTexts.loading}</p>;
  const disabled = tenant.data.UsageType === 'DEMO';

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <h1 className="text-xl font-semibold text-gray-900">{title}</h1>
      {/* Tremor's amber title (700 on a 10% tint) is short of WCAG AA's 4.5:1; the 900 shade meets it. */}
      {disabled && <Callout title={companyMessages.demoDisabled} color="amber" className="text-amber-900" />}
      <Card>
        <h2 className="mb-3 text-lg font-medium text-gray-900">{facts.isFirm ? 'Firm' : 'Company'}</h2>
        <CompanySettingsForm key={`company-${tenant.data.Id}`} tenant={tenant.data} disabled={disabled} />
      </Card>
      <Card>
        <h2 className="mb-3 text-lg font-medium text-gray-900">Reporting</h2>
        <ReportingSettingsForm key={`reporting-${tenant.data.Id}`} tenant={tenant.data} disabled={disabled} />
      </Card>
      <Card>
        <h2 className="mb-3 text-lg font-medium text-gray-900">Logo</h2>
        <LogoUploadForm tenant={tenant.data} disabled={disabled} />
      </Card>
      <Card>
        <h2 className="mb-3 text-lg font-medium text-gray-900">Billing and subscription</h2>
        <BillingSection classification={tenant.data.Classification} isDemo={disabled} />
      </Card>
      <Card>
        <h2 className="mb-3 text-lg font-medium text-gray-900">Connected platforms</h2>
        <Link
          to="/platforms"
          className="text-sm font-medium text-blue-700 underline-offset-2 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          Manage connected platforms
        </Link>
      </Card>
      {facts.isPlatformAdmin && (
        <Card>
          <h2 className="mb-3 text-lg font-medium text-gray-900">Platform admin</h2>
          <PlatformAdminSettingsForm key={`admin-${tenant.data.Id}`} tenant={tenant.data} />
        </Card>
      )}
    </div>
  );
};
