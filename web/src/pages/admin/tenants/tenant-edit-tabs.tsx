import { useId, useState, type KeyboardEvent } from 'react';
import type { Tenant } from '../../../../../contracts/api/tenants';
import { TextLink } from '../../../components/text-link';
import { CompanySettingsForm } from '../../settings/company-settings-form';
import { LogoUploadForm } from '../../settings/logo-upload-form';
import { PlatformAdminSettingsForm } from '../../settings/platform-admin-settings-form';
import { ReportingSettingsForm } from '../../settings/reporting-settings-form';
import { classificationLabels, usageTypeLabels } from './tenant-rules';

const tabs = ['Company', 'Reporting', 'Logo'] as const;
type Tab = (typeof tabs)[number];

const dateText = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' }) : 'None';

/** The ids and billing facts a platform admin sees beside the edit forms (admin.md section 2). */
const TenantFacts = ({ tenant }: { tenant: Tenant }) => (
  <div className="space-y-2">
    <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-2" aria-label="Tenant facts">
      {[
        ['Tenant id', String(tenant.Id)],
        ['Type', usageTypeLabels[tenant.UsageType]],
        ['Classification', classificationLabels[tenant.Classification]],
        ['Status', tenant.status],
        [
          'Partner',
          tenant.AdvisoryPartner ? `${tenant.AdvisoryPartner.Name} (${tenant.AdvisoryPartner.Id})` : 'None',
        ],
        ['Billing tenant', tenant.Subscription ? String(tenant.Subscription.BillingTenantId) : 'None'],
        ['Billing start date', dateText(tenant.Subscription?.StartedAt)],
        ['Plan', tenant.Subscription?.Plan.identifier ?? tenant.PlanIdentifier ?? 'None'],
        ['Signed up', dateText(tenant.createdAt)],
      ].map(([term, value]) => (
        <div key={term} className="flex gap-2">
          <dt className="font-medium text-gray-700">{term}:</dt>
          <dd className="text-gray-900">{value}</dd>
        </div>
      ))}
    </dl>
    <p className="text-sm">
      {/* Billing tenant, start date, products and the payment resync are edited with the subscription. */}
      <TextLink to={`/admin/subscriptions?filter=${encodeURIComponent(tenant.Name)}`}>
        Subscription, products and payment
      </TextLink>
    </p>
  </div>
);

/**
 * The admin tenant edit (admin.md section 2): vertical tabs Company, Reporting and Logo, the portal's
 * own settings forms in each, and the platform admin's fields under Company. Used by the page and the
 * modal alike.
 */
export const TenantEditTabs = ({ tenant }: { tenant: Tenant }) => {
  const [tab, setTab] = useState<Tab>('Company');
  const id = useId();
  const tabId = (name: Tab) => `${id}-tab-${name}`;
  const panelId = (name: Tab) => `${id}-panel-${name}`;

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length] ?? 'Company';
    setTab(next);
    document.getElementById(tabId(next))?.focus();
  };

  return (
    <div className="flex flex-col gap-4 sm:flex-row">
      <div
        role="tablist"
        aria-orientation="vertical"
        aria-label="Tenant settings"
        className="flex gap-1 sm:w-36 sm:flex-col"
      >
        {tabs.map((name) => (
          <button
            key={name}
            id={tabId(name)}
            type="button"
            role="tab"
            aria-selected={tab === name}
            aria-controls={panelId(name)}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
            onKeyDown={onKeyDown}
            className={`rounded-md px-3 py-2 text-left text-sm font-medium focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600 ${
              tab === name ? 'bg-blue-50 text-blue-800' : 'text-gray-700 hover:bg-gray-100'
            }`}
          >
            {name}
          </button>
        ))}
      </div>
      <div
        id={panelId(tab)}
        role="tabpanel"
        aria-labelledby={tabId(tab)}
        className="min-w-0 flex-1 space-y-6"
      >
        {tab === 'Company' && (
          <>
            <TenantFacts tenant={tenant} />
            <CompanySettingsForm key={`company-${tenant.Id}`} tenant={tenant} disabled={false} />
            <div className="border-t border-gray-200 pt-4">
              <h3 className="mb-3 text-base font-medium text-gray-900">Platform admin</h3>
              <PlatformAdminSettingsForm key={`admin-${tenant.Id}`} tenant={tenant} />
            </div>
          </>
        )}
        {tab === 'Reporting' && (
          <ReportingSettingsForm key={`reporting-${tenant.Id}`} tenant={tenant} disabled={false} />
        )}
        {tab === 'Logo' && <LogoUploadForm tenant={tenant} disabled={false} />}
      </div>
    </div>
  );
};
