import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../contracts/errors';
import { getIntegration, type IntegrationView } from '../../../projections/integrations/query-integrations';
import { INTEGRATIONS } from '../../../projections/integrations/integrations-projection';
import { waitUntilRead } from '../../../projections/read-after';
import { visibleToCaller } from '../visible-to-caller';

/** An integration account named by id: 404 when unknown or deleted, and 404 to another tenant. */
export const findIntegration = async (
  request: FastifyRequest,
  integrationId: number,
): Promise<IntegrationView> => {
  const { db } = request.server.services;
  await waitUntilRead(db, INTEGRATIONS, request.readAfter);
  const account = await getIntegration(db, { integrationId });
  if (!account || !visibleToCaller(request, account.TenantId))
    throw new AppError('not_found', 'Integration account not found.');
  return account;
};

/** The account as it reads after the caller's own change. */
export const integrationAfter = async (
  request: FastifyRequest,
  query: { integrationId: number; position: number },
): Promise<IntegrationView> => {
  const { db } = request.server.services;
  await waitUntilRead(db, INTEGRATIONS, { afterPosition: query.position });
  const account = await getIntegration(db, { integrationId: query.integrationId });
  if (!account) throw new AppError('not_found', 'Integration account not found.');
  return account;
};
