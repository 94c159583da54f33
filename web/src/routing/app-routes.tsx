import { Navigate, type RouteObject } from 'react-router';
import type { RouteAccess } from './route-access';
import { RouteErrorPage } from './route-error-page';
import { RouteGuard, type RouteHandle } from './route-guard';
import { isDevelopmentBuild } from './build-mode';
import { lazyPage } from './lazy-page';

// Every page has a chunk of its own (the message pages share one), and so has the signed-in shell:
// the first load of /login fetches neither the dashboard nor its libraries.
const LoginPage = lazyPage(() => import('../pages/auth/login-page').then((page) => page.LoginPage));
const RegisterPage = lazyPage(() => import('../pages/auth/register-page').then((page) => page.RegisterPage));
const ForgotPasswordPage = lazyPage(() =>
  import('../pages/auth/forgot-password-page').then((page) => page.ForgotPasswordPage),
);
const ResetPasswordPage = lazyPage(() =>
  import('../pages/auth/reset-password-page').then((page) => page.ResetPasswordPage),
);
const InvitationPage = lazyPage(() =>
  import('../pages/auth/invitation-page').then((page) => page.InvitationPage),
);
const UnsubscribePage = lazyPage(() =>
  import('../pages/reports/unsubscribe-page').then((page) => page.UnsubscribePage),
);
const messagePages = () => import('../pages/auth/message-pages');
const EmailVerifiedPage = lazyPage(() => messagePages().then((pages) => pages.EmailVerifiedPage));
const InviteCancelledPage = lazyPage(() => messagePages().then((pages) => pages.InviteCancelledPage));
const NotFoundPage = lazyPage(() => messagePages().then((pages) => pages.NotFoundPage));
const RecoveryFailedPage = lazyPage(() => messagePages().then((pages) => pages.RecoveryFailedPage));
const VerificationFailedPage = lazyPage(() => messagePages().then((pages) => pages.VerificationFailedPage));

const DashboardShell = lazyPage(() =>
  import('../shell/dashboard-shell').then((shell) => shell.DashboardShell),
);
const BusinessDashboardPage = lazyPage(() =>
  import('../pages/dashboard/business-dashboard-page').then((page) => page.BusinessDashboardPage),
);
const AdvisorDashboardPage = lazyPage(() =>
  import('../pages/dashboard/advisor-dashboard-page').then((page) => page.AdvisorDashboardPage),
);
const ClientsPage = lazyPage(() => import('../pages/clients/clients-page').then((page) => page.ClientsPage));
const ManageUsersPage = lazyPage(() =>
  import('../pages/clients/manage-users-page').then((page) => page.ManageUsersPage),
);
const CompleteRegistrationPage = lazyPage(() =>
  import('../pages/auth/complete-registration-page').then((page) => page.CompleteRegistrationPage),
);
const PlatformsPage = lazyPage(() =>
  import('../pages/platforms/platforms-page').then((page) => page.PlatformsPage),
);
const ProfilePage = lazyPage(() => import('../pages/profile/profile-page').then((page) => page.ProfilePage));
const ReportsPage = lazyPage(() => import('../pages/reports/reports-page').then((page) => page.ReportsPage));
const SettingsPage = lazyPage(() =>
  import('../pages/settings/settings-page').then((page) => page.SettingsPage),
);
const SellerPage = lazyPage(() => import('../pages/sellers/seller-page').then((page) => page.SellerPage));
const CustomerPage = lazyPage(() =>
  import('../pages/sellers/customer-page').then((page) => page.CustomerPage),
);
const AdminMetricsPage = lazyPage(() =>
  import('../pages/admin/admin-metrics-page').then((page) => page.AdminMetricsPage),
);
const AdminReportsPage = lazyPage(() =>
  import('../pages/admin/admin-reports-page').then((page) => page.AdminReportsPage),
);
const AdminSellersPage = lazyPage(() =>
  import('../pages/admin/sellers/admin-sellers-page').then((page) => page.AdminSellersPage),
);
const AdminOverviewPage = lazyPage(() =>
  import('../pages/admin/overview/admin-overview-page').then((page) => page.AdminOverviewPage),
);
const AdminDatasetsPage = lazyPage(() =>
  import('../pages/admin/datasets/admin-datasets-page').then((page) => page.AdminDatasetsPage),
);
const AdminStatisticsPage = lazyPage(() =>
  import('../pages/admin/statistics/admin-statistics-page').then((page) => page.AdminStatisticsPage),
);
const AdminTenantsPage = lazyPage(() =>
  import('../pages/admin/tenants/admin-tenants-page').then((page) => page.AdminTenantsPage),
);
const AdminTenantEditPage = lazyPage(() =>
  import('../pages/admin/tenants/admin-tenant-edit-page').then((page) => page.AdminTenantEditPage),
);
const AuditHistoryPage = lazyPage(() =>
  import('../pages/admin/audit/audit-history-page').then((page) => page.AuditHistoryPage),
);
const AdminCollectionPage = lazyPage(() =>
  import('../pages/admin/collection/admin-collection-page').then((page) => page.AdminCollectionPage),
);
const QbdLogsPage = lazyPage(() =>
  import('../pages/admin/collection/qbd-logs-page').then((page) => page.QbdLogsPage),
);
const AdminPartnersPage = lazyPage(() =>
  import('../pages/admin/partners/admin-partners-page').then((page) => page.AdminPartnersPage),
);
const AdminIntegrationsPage = lazyPage(() =>
  import('../pages/admin/integrations/admin-integrations-page').then((page) => page.AdminIntegrationsPage),
);
const IntegrationCompaniesPage = lazyPage(() =>
  import('../pages/admin/integrations/integration-companies-page').then(
    (page) => page.IntegrationCompaniesPage,
  ),
);
const AdminUsersPage = lazyPage(() =>
  import('../pages/admin/users/admin-users-page').then((page) => page.AdminUsersPage),
);
const AdminRecipientsPage = lazyPage(() =>
  import('../pages/admin/recipients/admin-recipients-page').then((page) => page.AdminRecipientsPage),
);
const AdminSubscriptionsPage = lazyPage(() =>
  import('../pages/admin/billing/admin-subscriptions-page').then((page) => page.AdminSubscriptionsPage),
);
const AdminPlansPage = lazyPage(() =>
  import('../pages/admin/billing/admin-plans-page').then((page) => page.AdminPlansPage),
);
const AdminTasksPage = lazyPage(() =>
  import('../pages/admin/tasks/admin-tasks-page').then((page) => page.AdminTasksPage),
);
const WorkQueuesPage = lazyPage(() =>
  import('../pages/devops/work-queues-page').then((page) => page.WorkQueuesPage),
);
const DatabasePage = lazyPage(() =>
  import('../pages/devops/database-page').then((page) => page.DatabasePage),
);
const TeamPage = lazyPage(() => import('../pages/team/team-page').then((page) => page.TeamPage));
const UserPage = lazyPage(() => import('../pages/team/user-page').then((page) => page.UserPage));

const handle = (name: string, access: RouteAccess, forceLogout?: boolean): RouteHandle => ({
  meta: { name, access, ...(forceLogout ? { forceLogout } : {}) },
});

/**
 * The admin explorers, defined only when called: in a production build the call is dead code, so no
 * route and no loader reach their chunk (Vite still writes the chunk file).
 */
const developmentRoutes = (): RouteObject[] => {
  const explorerPages = () => import('../pages/admin/explorer-pages');
  const MetricExplorerPage = lazyPage(() => explorerPages().then((pages) => pages.MetricExplorerPage));
  const TransactionExplorerPage = lazyPage(() =>
    explorerPages().then((pages) => pages.TransactionExplorerPage),
  );
  const ReportTemplatePage = lazyPage(() =>
    import('../pages/reports/report-template-page').then((page) => page.ReportTemplatePage),
  );
  return [
    // portal.md section 2.1: report templates are a development tool.
    {
      path: '/reports/new',
      element: <ReportTemplatePage />,
      handle: handle('ReportTemplateNew', 'signedIn'),
    },
    {
      path: '/reports/:templateId/edit',
      element: <ReportTemplatePage />,
      handle: handle('ReportTemplateEdit', 'signedIn'),
    },
    {
      path: '/admin/explorer/metrics',
      element: <MetricExplorerPage />,
      handle: handle('Metric Explorer', 'platformAdmin'),
    },
    {
      path: '/admin/explorer/transactions',
      element: <TransactionExplorerPage />,
      handle: handle('Transactions Explorer', 'platformAdmin'),
    },
  ];
};

/** Pages inside the dashboard shell: every route of portal.md section 2.1 that needs a session. */
const shellRoutes: RouteObject[] = [
  { path: '/', element: <Navigate to="/overview" replace />, handle: handle('Overview', 'signedIn') },
  { path: '/overview', element: <BusinessDashboardPage />, handle: handle('Overview', 'signedIn') },
  {
    path: '/advisor/overview',
    element: <AdvisorDashboardPage />,
    handle: handle('Advisor Dashboard', 'signedIn'),
  },
  { path: '/clients', element: <ClientsPage />, handle: handle('Clients', 'advisor') },
  {
    path: '/manage-users',
    element: <ManageUsersPage />,
    handle: handle('Manage Users', 'advisor'),
  },
  { path: '/profile', element: <ProfilePage />, handle: handle('Profile', 'signedIn') },
  {
    path: '/complete-registration',
    element: <CompleteRegistrationPage />,
    handle: handle('Complete Registration', 'signedIn'),
  },
  { path: '/platforms', element: <PlatformsPage />, handle: handle('Platforms', 'signedIn') },
  { path: '/reports', element: <ReportsPage />, handle: handle('Reports', 'signedIn') },
  {
    path: '/recipients',
    element: <Navigate to="/reports" replace />,
    handle: handle('Recipients', 'signedIn'),
  },
  { path: '/settings', element: <SettingsPage />, handle: handle('Settings', 'tenantAdmin') },
  { path: '/users', element: <TeamPage />, handle: handle('Users', 'signedIn') },
  { path: '/users/:userId', element: <UserPage />, handle: handle('User', 'signedIn') },
  { path: '/sellers/:sellerId', element: <SellerPage />, handle: handle('Seller', 'signedIn') },
  {
    path: '/sellers/:sellerId/customers/:customerId',
    element: <CustomerPage />,
    handle: handle('Customer', 'signedIn'),
  },
  {
    path: '/admin',
    element: <Navigate to="/admin/overview" replace />,
    handle: handle('Admin', 'platformAdmin'),
  },
  {
    path: '/admin/overview',
    element: <AdminOverviewPage />,
    handle: handle('Admin Overview', 'platformAdmin'),
  },
  { path: '/admin/tenants', element: <AdminTenantsPage />, handle: handle('Admin Tenants', 'platformAdmin') },
  {
    path: '/admin/tenants/:tenantId',
    element: <AdminTenantEditPage />,
    handle: handle('Edit Tenant', 'platformAdmin'),
  },
  {
    path: '/admin/tenants/:tenantId/audit',
    element: <AuditHistoryPage />,
    handle: handle('UserActionAudit', 'platformAdmin'),
  },
  { path: '/admin/metrics', element: <AdminMetricsPage />, handle: handle('Admin Metrics', 'platformAdmin') },
  { path: '/admin/sellers', element: <AdminSellersPage />, handle: handle('Admin Sellers', 'platformAdmin') },
  {
    path: '/admin/collection',
    element: <AdminCollectionPage />,
    handle: handle('Admin Collection', 'platformAdmin'),
  },
  {
    path: '/admin/collection/qbd-logs/:sellerId',
    element: <QbdLogsPage />,
    handle: handle('QuickBooks Desktop Logs', 'platformAdmin'),
  },
  { path: '/admin/reports', element: <AdminReportsPage />, handle: handle('Admin Reports', 'platformAdmin') },
  {
    path: '/admin/partners',
    element: <AdminPartnersPage />,
    handle: handle('Admin Partners', 'platformAdmin'),
  },
  {
    path: '/admin/integrations',
    element: <AdminIntegrationsPage />,
    handle: handle('Admin Integrations', 'platformAdmin'),
  },
  // Reached from an integration's expanded row; admin.md gives it no sidebar place.
  {
    path: '/admin/integrations/:id/companies',
    element: <IntegrationCompaniesPage />,
    handle: handle('Matched Companies', 'platformAdmin'),
  },
  { path: '/admin/users', element: <AdminUsersPage />, handle: handle('Admin Users', 'platformAdmin') },
  {
    path: '/admin/recipients',
    element: <AdminRecipientsPage />,
    handle: handle('Admin Recipients', 'platformAdmin'),
  },
  { path: '/admin/tasks', element: <AdminTasksPage />, handle: handle('Admin Tasks', 'platformAdmin') },
  {
    path: '/admin/datasets',
    element: <AdminDatasetsPage />,
    handle: handle('Admin Data Sets', 'platformAdmin'),
  },
  {
    path: '/admin/statistics',
    element: <AdminStatisticsPage />,
    handle: handle('Admin Statistics', 'platformAdmin'),
  },
  {
    path: '/admin/subscriptions',
    element: <AdminSubscriptionsPage />,
    handle: handle('Admin Billing Subscriptions', 'platformAdmin'),
  },
  { path: '/admin/plans', element: <AdminPlansPage />, handle: handle('Admin Plans', 'platformAdmin') },
  { path: '/devops/queues', element: <WorkQueuesPage />, handle: handle('Work Queues', 'platformAdmin') },
  { path: '/devops/database', element: <DatabasePage />, handle: handle('Database', 'platformAdmin') },
  // admin.md section 2: the explorers exist in development builds only.
  ...(isDevelopmentBuild ? developmentRoutes() : []),
  {
    path: '/devops',
    element: <Navigate to="/devops/queues" replace />,
    handle: handle('DevOps', 'platformAdmin'),
  },
];

/** Pages without the shell: sign-in flows, the pages the API's redirects land on, and 404. */
const bareRoutes: RouteObject[] = [
  { path: '/login', element: <LoginPage />, handle: handle('Login', 'guestOnly') },
  { path: '/register', element: <RegisterPage />, handle: handle('Register', 'guestOnly') },
  { path: '/forgot', element: <ForgotPasswordPage />, handle: handle('Forgot Password', 'guestOnly') },
  { path: '/reset-password', element: <ResetPasswordPage />, handle: handle('Reset Password', 'signedIn') },
  { path: '/email-verified', element: <EmailVerifiedPage />, handle: handle('Email Verified', 'any') },
  // The invitation email's link; guests and users alike (who may accept is the server's decision).
  { path: '/invitation', element: <InvitationPage />, handle: handle('Invitation', 'any') },
  {
    path: '/invite-cancelled',
    element: <InviteCancelledPage />,
    handle: handle('Invite Cancelled', 'any', true),
  },
  // A report email's stop link; the signed token is the credential, signed in or not.
  { path: '/unsubscribe', element: <UnsubscribePage />, handle: handle('Unsubscribe', 'any') },
  { path: '/recovery-failed', element: <RecoveryFailedPage />, handle: handle('Recovery Failed', 'any') },
  {
    path: '/verification-failed',
    element: <VerificationFailedPage />,
    handle: handle('Verification Failed', 'any'),
  },
  // Unknown admin and devops paths: platform admins see the 404 page, anyone else is sent away as
  // from every admin page (admin.md section 2).
  { path: '/admin/*', element: <NotFoundPage />, handle: handle('Not Found', 'platformAdmin') },
  { path: '/devops/*', element: <NotFoundPage />, handle: handle('Not Found', 'platformAdmin') },
  { path: '*', element: <NotFoundPage />, handle: handle('Not Found', 'any') },
];

export const appRoutes: RouteObject[] = [
  {
    element: <RouteGuard />,
    errorElement: <RouteErrorPage />,
    children: [{ element: <DashboardShell />, children: shellRoutes }, ...bareRoutes],
  },
];
