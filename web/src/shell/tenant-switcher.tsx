import { useState } from 'react';
import { useAppServices } from '../session/app-services-context';
import { useSession } from '../session/session-query';
import { switchToTenant } from '../session/session-actions';

export const tenantSwitcherId = 'tenant-switcher';
const switchFailed = 'There was an error while switching to a different tenant.';

/** The company picker of the top bar: a native select, so it works by keyboard and screen reader. */
export const TenantSwitcher = () => {
  const services = useAppServices();
  const session = useSession();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (session.tenants.length === 0) return null;

  const choose = async (tenantId: number) => {
    const target = session.tenants.find((tenant) => tenant.Id === tenantId);
    if (!target || tenantId === session.tenant?.Id) return;
    setError(null);
    setBusy(true);
    try {
      // A firm opens on its advisor dashboard (portal.md section 4).
      await switchToTenant(services, {
        tenantId,
        to: target.Classification === 'FIRM' ? '/advisor/overview' : '/overview',
      });
    } catch {
      setError(switchFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex min-w-0 flex-col">
      <label htmlFor={tenantSwitcherId} className="sr-only">
        Switch company
      </label>
      <select
        id={tenantSwitcherId}
        value={session.tenant?.Id ?? ''}
        disabled={busy}
        onChange={(event) => void choose(Number(event.target.value))}
        className="max-w-[12rem] truncate rounded-md border border-gray-300 bg-white py-1.5 pl-2 pr-8 text-sm focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
      >
        {session.tenant === null && <option value="">Choose a company</option>}
        {session.tenants.map((tenant) => (
          <option key={tenant.Id} value={tenant.Id}>
            {tenant.Name}
          </option>
        ))}
      </select>
      {error && (
        <p role="alert" className="mt-1 text-xs text-red-600">
          {error}
        </p>
      )}
    </div>
  );
};
