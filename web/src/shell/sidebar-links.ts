import { canSwitchCompanies, type SessionFacts } from '../session/session-facts';

export type SidebarLink = {
  label: string;
  to: string;
  /** Switches to the advisor's firm before going there (the Advisor Dashboard back link). */
  switchToFirm?: boolean;
};

export type SidebarFacts = SessionFacts & { hasConnectedSeller: boolean };

type Rule = SidebarLink & { shows: (facts: SidebarFacts) => boolean };

const firmAdvisor = (f: SidebarFacts) => f.isAdvisor && f.isFirm;
const admin = (f: SidebarFacts) => f.isTenantAdmin || f.isPlatformAdmin;

/**
 * The admin and devops pages of admin.md section 2 that this build has, in the spec's order, for
 * platform admins only.
 */
export const adminLinks: readonly SidebarLink[] = [
  { label: 'Admin Overview', to: '/admin/overview' },
  { label: 'Admin Tenants', to: '/admin/tenants' },
  { label: 'Admin Partners', to: '/admin/partners' },
  { label: 'Admin Sellers', to: '/admin/sellers' },
  { label: 'Collection', to: '/admin/collection' },
  { label: 'Admin Integrations', to: '/admin/integrations' },
  { label: 'Admin Users', to: '/admin/users' },
  { label: 'Admin Recipients', to: '/admin/recipients' },
  { label: 'Admin Metrics', to: '/admin/metrics' },
  { label: 'Admin Reports', to: '/admin/reports' },
  { label: 'Statistics', to: '/admin/statistics' },
  { label: 'Data Sets', to: '/admin/datasets' },
  { label: 'Admin Tasks', to: '/admin/tasks' },
  { label: 'Subscriptions', to: '/admin/subscriptions' },
  { label: 'Plans', to: '/admin/plans' },
  { label: 'Work Queues', to: '/devops/queues' },
  { label: 'Database', to: '/devops/database' },
];

/**
 * The sidebar's links in order with the visibility rules of portal.md section 2.3: advisor-firm links
 * only for an advisor in a firm; common links that a firm has its own page for are hidden there;
 * Reports only with a connected seller; admin links for tenant or platform admins; platform-admin
 * links for platform admins; the way back to the firm for advisors working in a client.
 */
const rules: readonly Rule[] = [
  { label: 'Advisor Dashboard', to: '/advisor/overview', shows: firmAdvisor },
  { label: 'My Clients', to: '/clients', shows: firmAdvisor },
  { label: 'Manage Users', to: '/manage-users', shows: firmAdvisor },
  {
    label: 'Advisor Dashboard',
    to: '/advisor/overview',
    switchToFirm: true,
    shows: (f) => f.isAdvisor && !f.isFirm,
  },
  { label: 'Dashboard', to: '/overview', shows: (f) => !firmAdvisor(f) },
  { label: 'Platforms', to: '/platforms', shows: () => true },
  { label: 'Reports', to: '/reports', shows: (f) => f.hasConnectedSeller && !firmAdvisor(f) },
  { label: 'Team', to: '/users', shows: () => true },
  { label: 'My Firm', to: '/settings', shows: (f) => firmAdvisor(f) && admin(f) },
  { label: 'Settings', to: '/settings', shows: (f) => !firmAdvisor(f) && admin(f) },
  ...adminLinks.map((link) => ({ ...link, shows: (f: SidebarFacts) => f.isPlatformAdmin })),
];

export const sidebarLinks = (facts: SidebarFacts): SidebarLink[] =>
  facts.hasTenant || facts.isPlatformAdmin
    ? rules.filter((rule) => rule.shows(facts)).map(({ shows: _shows, ...link }) => link)
    : [];

/** Advisor firms go to their client list; everyone else picks among their companies. */
export const companyEntry = (facts: SidebarFacts): 'goToClients' | 'switchCompanies' | null => {
  if (facts.isFirm && facts.isAdvisor) return 'goToClients';
  return canSwitchCompanies(facts) ? 'switchCompanies' : null;
};
