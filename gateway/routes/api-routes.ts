import type { FastifyPluginAsync } from 'fastify';
import { auditRoutes } from './admin/audit-routes';
import { partnerRoutes } from './admin/partner-routes';
import { statsRoutes } from './admin/stats-routes';
import { jobRoutes } from './jobs/job-routes';
import { metricsJobRoutes } from './jobs/metrics-job-routes';
import { reportRequestRoutes } from './jobs/report-request-routes';
import { datasetTaskRoutes } from './jobs/dataset-task-routes';
import { accountRoutes } from './auth/account-routes';
import { inviteRoutes } from './auth/invite-routes';
import { oidcRoutes } from './auth/oidc-routes';
import { connectRoutes } from './connect/connect-routes';
import { sessionRoutes } from './auth/session-routes';
import { integrationRoutes } from './platforms/integration-routes';
import { qbdConfigRoutes } from './platforms/qbd-config-routes';
import { recipientRoutes } from './platforms/recipient-routes';
import { sellerRoutes } from './platforms/seller-routes';
import { sellerSyncRoutes } from './platforms/seller-sync-routes';
import { browserStateRoutes } from './browser-state/browser-state-routes';
import { streamHistoryRoutes } from './stream-history';
import { ledgerRoutes } from './ledger/ledger-routes';
import { forecastRoutes } from './forecasts/forecast-routes';
import { planFeatureRoutes } from './platforms/plan-feature-routes';
import { tenantUpdateRoutes } from './tenants/tenant-update-routes';
import { tenantRoutes } from './tenants/tenant-routes';
import { tenantLogoRoutes } from './tenants/tenant-logo-routes';
import { tenantCreateRoutes } from './tenants/tenant-create-routes';
import { clientRoutes } from './clients/client-routes';
import { userEditRoutes } from './users/user-edit-routes';
import { userRoutes } from './users/user-routes';
import { liveRoutes } from '../live/live-routes';

/**
 * Every route group of the API that needs the services (sessions, write side, read models). One
 * plugin per resource group; each route declares its access level (plugins/access.ts).
 */
export const apiRoutes: FastifyPluginAsync = async (app) => {
  await app.register(sessionRoutes);
  await app.register(accountRoutes);
  await app.register(inviteRoutes);
  await app.register(oidcRoutes);
  await app.register(connectRoutes);
  await app.register(streamHistoryRoutes);
  await app.register(ledgerRoutes);
  await app.register(forecastRoutes);
  await app.register(planFeatureRoutes);
  await app.register(liveRoutes);
  await app.register(sellerRoutes);
  await app.register(sellerSyncRoutes);
  await app.register(qbdConfigRoutes);
  await app.register(integrationRoutes);
  await app.register(recipientRoutes);
  await app.register(partnerRoutes);
  await app.register(auditRoutes);
  await app.register(statsRoutes);
  await app.register(userRoutes);
  await app.register(userEditRoutes);
  await app.register(browserStateRoutes);
  await app.register(metricsJobRoutes);
  await app.register(reportRequestRoutes);
  await app.register(datasetTaskRoutes);
  await app.register(jobRoutes);
  await app.register(tenantRoutes);
  await app.register(tenantCreateRoutes);
  await app.register(tenantUpdateRoutes);
  await app.register(tenantLogoRoutes);
  await app.register(clientRoutes);
};
