import { useAtom } from 'jotai';
import { Link } from 'react-router';
import { useAppServices } from '../session/app-services-context';
import { endSession } from '../session/session-actions';
import { useSession } from '../session/session-query';
import { mobileMenuOpenAtom } from '../state/client-choices';
import { TenantSwitcher } from './tenant-switcher';

export const helpUrl = 'mailto:support@ledgerwise.example';

const barLink =
  'rounded-md px-2 py-1.5 text-sm font-medium text-gray-700 hover:bg-gray-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600';

/** The tenant's name; platform admins see its id on hover or focus (portal.md section 2.3). */
const TenantName = () => {
  const session = useSession();
  const { tenant } = session;
  if (!tenant) return <span className="truncate font-semibold text-gray-900">No company yet</span>;
  const name = tenant.FriendlyName ?? tenant.Name;
  if (!session.user.isPlatformAdmin)
    return <span className="truncate font-semibold text-gray-900">{name}</span>;
  return (
    <span className="group relative min-w-0">
      <span
        tabIndex={0}
        aria-describedby="tenant-id-tip"
        className="truncate font-semibold text-gray-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
      >
        {name}
      </span>
      <span
        id="tenant-id-tip"
        role="tooltip"
        className="invisible absolute left-0 top-full z-20 mt-1 whitespace-nowrap rounded bg-gray-900 px-2 py-1 text-xs text-white group-focus-within:visible group-hover:visible"
      >
        Tenant ID: {tenant.Id}
      </span>
    </span>
  );
};

export const TopBar = () => {
  const services = useAppServices();
  const [menuOpen, setMenuOpen] = useAtom(mobileMenuOpenAtom);
  return (
    <header className="flex items-center gap-3 border-b border-gray-200 bg-white px-3 py-2 sm:px-6">
      <button
        type="button"
        className="rounded-md p-2 text-gray-700 hover:bg-gray-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600 lg:hidden"
        aria-label={menuOpen ? 'Close menu' : 'Open menu'}
        aria-expanded={menuOpen}
        aria-controls="mobile-menu"
        onClick={() => setMenuOpen(!menuOpen)}
      >
        <span aria-hidden="true">☰</span>
      </button>
      <div className="flex min-w-0 flex-1 items-center">
        <TenantName />
      </div>
      <TenantSwitcher />
      <div className="hidden items-center gap-1 sm:flex">
        <a href={helpUrl} className={barLink}>
          Help
        </a>
        <Link to="/profile" className={barLink}>
          Profile
        </Link>
        <button type="button" className={barLink} onClick={() => void endSession(services)}>
          Sign out
        </button>
      </div>
    </header>
  );
};
