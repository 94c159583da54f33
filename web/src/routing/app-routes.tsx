import { Navigate, type RouteObject } from 'react-router';
import { ForgotPasswordPage } from '../pages/auth/forgot-password-page';
import { LoginPage } from '../pages/auth/login-page';
import {
  EmailVerifiedPage,
  InviteCancelledPage,
  NotFoundPage,
  RecoveryFailedPage,
  VerificationFailedPage,
} from '../pages/auth/message-pages';
import { RegisterPage } from '../pages/auth/register-page';
import { ResetPasswordPage } from '../pages/auth/reset-password-page';
import { ClientsPage } from '../pages/clients/clients-page';
import { ManageUsersPage } from '../pages/clients/manage-users-page';
import { AdvisorDashboardPage } from '../pages/dashboard/advisor-dashboard-page';
import { BusinessDashboardPage } from '../pages/dashboard/business-dashboard-page';
import { PlaceholderPage } from '../pages/placeholder-page';
import { PlatformsPage } from '../pages/platforms/platforms-page';
import { ProfilePage } from '../pages/profile/profile-page';
import { ReportsPage } from '../pages/reports-page';
import { SettingsPage } from '../pages/settings/settings-page';
import { TeamPage } from '../pages/team/team-page';
import { UserPage } from '../pages/team/user-page';
import { DashboardShell } from '../shell/dashboard-shell';
import type { RouteAccess } from './route-access';
import { RouteGuard, type RouteHandle } from './route-guard';

const handle = (name: string, access: RouteAccess, forceLogout?: boolean): RouteHandle => ({
  meta: { name, access, ...(forceLogout ? { forceLogout } : {}) },
});

const later = (title: string, note?: string) => <PlaceholderPage title={title} {...(note ? { note } : {})} />;

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
    element: later('Complete registration'),
    handle: handle('Complete Registration', 'signedIn'),
  },
  { path: '/platforms', element: <PlatformsPage />, handle: handle('Platforms', 'signedIn') },
  { path: '/reports', element: <ReportsPage />, handle: handle('Reports', 'signedIn') },
  {
    path: '/reports/new',
    element: later('New report template'),
    handle: handle('ReportTemplateNew', 'signedIn'),
  },
  {
    path: '/reports/:templateId/edit',
    element: later('Edit report template'),
    handle: handle('ReportTemplateEdit', 'signedIn'),
  },
  {
    path: '/recipients',
    element: <Navigate to="/reports" replace />,
    handle: handle('Recipients', 'signedIn'),
  },
  { path: '/settings', element: <SettingsPage />, handle: handle('Settings', 'tenantAdmin') },
  { path: '/users', element: <TeamPage />, handle: handle('Users', 'signedIn') },
  { path: '/users/:userId', element: <UserPage />, handle: handle('User', 'signedIn') },
  { path: '/sellers/:sellerId', element: later('Seller'), handle: handle('Seller', 'signedIn') },
  {
    path: '/admin/*',
    element: later('Admin', 'The admin area comes in a later issue.'),
    handle: handle('Admin', 'platformAdmin'),
  },
  {
    path: '/devops/*',
    element: later('DevOps', 'The devops area comes in a later issue.'),
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
  {
    path: '/invite-cancelled',
    element: <InviteCancelledPage />,
    handle: handle('Invite Cancelled', 'any', true),
  },
  { path: '/recovery-failed', element: <RecoveryFailedPage />, handle: handle('Recovery Failed', 'any') },
  {
    path: '/verification-failed',
    element: <VerificationFailedPage />,
    handle: handle('Verification Failed', 'any'),
  },
  { path: '*', element: <NotFoundPage />, handle: handle('Not Found', 'any') },
];

export const appRoutes: RouteObject[] = [
  {
    element: <RouteGuard />,
    children: [{ element: <DashboardShell />, children: shellRoutes }, ...bareRoutes],
  },
];
