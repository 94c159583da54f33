import { adminLinks, companyEntry, sidebarLinks, type SidebarFacts } from './sidebar-links';

const facts = (overrides: Partial<SidebarFacts> = {}): SidebarFacts => ({
  isPlatformAdmin: false,
  isTenantAdmin: false,
  isAdvisor: false,
  isFirm: false,
  isDemo: false,
  tenantCount: 1,
  hasTenant: true,
  resetPasswordRequired: false,
  hasConnectedSeller: false,
  ...overrides,
});

const labels = (f: SidebarFacts) => sidebarLinks(f).map((link) => link.label);

describe('sidebar visibility (portal.md section 2.3)', () => {
  it('shows a plain business user the common links only', () => {
    expect(labels(facts())).toEqual(['Dashboard', 'Platforms', 'Team']);
  });

  it('shows Reports only when the tenant has a connected seller', () => {
    expect(labels(facts({ hasConnectedSeller: true }))).toContain('Reports');
    expect(labels(facts({ hasConnectedSeller: false }))).not.toContain('Reports');
  });

  it('shows Settings to a tenant admin and to a platform admin, not to a standard user', () => {
    expect(labels(facts({ isTenantAdmin: true }))).toContain('Settings');
    expect(labels(facts({ isPlatformAdmin: true }))).toContain('Settings');
    expect(labels(facts())).not.toContain('Settings');
  });

  it('shows every admin and devops page to platform admins only, after the portal links', () => {
    const links = sidebarLinks(facts({ isPlatformAdmin: true }));
    expect(links.slice(-adminLinks.length)).toEqual(adminLinks);
    expect(adminLinks.map((link) => link.to)).toEqual([
      '/admin/overview',
      '/admin/tenants',
      '/admin/partners',
      '/admin/sellers',
      '/admin/collection',
      '/admin/integrations',
      '/admin/users',
      '/admin/recipients',
      '/admin/metrics',
      '/admin/reports',
      '/admin/statistics',
      '/admin/datasets',
      '/admin/tasks',
      '/admin/subscriptions',
      '/admin/plans',
      '/devops/queues',
      '/devops/database',
    ]);
    for (const standing of [{ isTenantAdmin: true }, { isAdvisor: true, isFirm: true }, {}]) {
      const shown = sidebarLinks(facts(standing)).map((link) => link.to);
      expect(shown.filter((to) => to.startsWith('/admin') || to.startsWith('/devops'))).toEqual([]);
    }
  });

  it('gives an advisor in their firm the firm links instead of the business dashboard', () => {
    const firm = labels(
      facts({ isAdvisor: true, isFirm: true, isTenantAdmin: true, hasConnectedSeller: true }),
    );
    expect(firm).toEqual(['Advisor Dashboard', 'My Clients', 'Manage Users', 'Platforms', 'Team', 'My Firm']);
  });

  it('does not give firm links to a non-advisor member of a firm', () => {
    expect(labels(facts({ isFirm: true }))).not.toContain('My Clients');
  });

  it('gives an advisor working in a client a way back to the advisor dashboard', () => {
    const links = sidebarLinks(facts({ isAdvisor: true }));
    expect(links[0]).toEqual({ label: 'Advisor Dashboard', to: '/advisor/overview', switchToFirm: true });
    expect(links.map((link) => link.label)).toContain('Dashboard');
  });

  it('shows no links before the user has a company', () => {
    expect(labels(facts({ hasTenant: false, tenantCount: 0 }))).toEqual([]);
  });
});

describe('Go To Clients or Switch Companies (portal.md sections 2.3 and 6)', () => {
  it('offers advisor firms Go To Clients', () => {
    expect(companyEntry(facts({ isAdvisor: true, isFirm: true }))).toBe('goToClients');
  });

  it('lets advisors and admins switch with any company, plain users only with more than one', () => {
    expect(companyEntry(facts({ isTenantAdmin: true, tenantCount: 1 }))).toBe('switchCompanies');
    expect(companyEntry(facts({ isAdvisor: true, tenantCount: 1 }))).toBe('switchCompanies');
    expect(companyEntry(facts({ tenantCount: 1 }))).toBeNull();
    expect(companyEntry(facts({ tenantCount: 2 }))).toBe('switchCompanies');
  });

  it('lets a platform admin switch even without companies of their own', () => {
    expect(companyEntry(facts({ isPlatformAdmin: true, tenantCount: 0, hasTenant: false }))).toBe(
      'switchCompanies',
    );
  });
});
