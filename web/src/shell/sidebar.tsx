import { NavLink, useNavigate } from 'react-router';
import { useAppServices } from '../session/app-services-context';
import { useSession } from '../session/session-query';
import { switchToTenant } from '../session/session-actions';
import { companyEntry, sidebarLinks, type SidebarFacts, type SidebarLink } from './sidebar-links';

const linkClasses = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-3 py-2 text-sm font-medium focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white ${
    isActive ? 'bg-white/15 text-white' : 'text-white/80 hover:bg-white/10 hover:text-white'
  }`;

/** The logo's caption differs for an advisor, a firm or everyone else (portal.md section 2.3). */
const logoCaption = (facts: SidebarFacts) => (facts.isFirm ? 'Firm' : facts.isAdvisor ? 'Advisor' : null);

type SidebarProps = {
  facts: SidebarFacts;
  /** Opens the company switcher of the top bar. */
  onSwitchCompanies: () => void;
  onNavigate?: () => void;
};

/** Green for advisor firms, black otherwise; links by the visibility rules of sidebar-links.ts. */
export const Sidebar = ({ facts, onSwitchCompanies, onNavigate }: SidebarProps) => {
  const services = useAppServices();
  const session = useSession();
  const navigate = useNavigate();
  const links = sidebarLinks(facts);
  const entry = companyEntry(facts);
  const caption = logoCaption(facts);

  const backToFirm = async (link: SidebarLink) => {
    const firmId = session.user.DefaultPartnerTenantId;
    if (firmId === null) return navigate(link.to);
    await switchToTenant(services, { tenantId: firmId, to: link.to }).catch(() => undefined);
  };

  return (
    <nav
      aria-label="Main"
      data-testid="sidebar"
      className={`flex h-full flex-col gap-1 overflow-y-auto p-3 ${facts.isFirm ? 'bg-emerald-800' : 'bg-gray-950'}`}
    >
      <p className="mb-4 px-3 pt-2 text-lg font-bold text-white">
        Ledgerwise
        {caption && <span className="ml-2 text-xs font-normal uppercase text-white/70">{caption}</span>}
      </p>
      {links.map((link) =>
        link.switchToFirm ? (
          <button
            key={`${link.label}-back`}
            type="button"
            className={`${linkClasses({ isActive: false })} text-left`}
            onClick={() => void backToFirm(link).then(onNavigate)}
          >
            {link.label}
          </button>
        ) : (
          <NavLink key={link.label} to={link.to} className={linkClasses} onClick={onNavigate}>
            {link.label}
          </NavLink>
        ),
      )}
      <div className="mt-auto pt-4">
        {entry === 'goToClients' && (
          <NavLink to="/clients" className={linkClasses} onClick={onNavigate}>
            Go To Clients
          </NavLink>
        )}
        {entry === 'switchCompanies' && (
          <button
            type="button"
            className={`${linkClasses({ isActive: false })} w-full text-left`}
            onClick={onSwitchCompanies}
          >
            Switch Companies
          </button>
        )}
      </div>
    </nav>
  );
};
