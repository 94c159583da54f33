import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../contracts/errors';
import type { Industry } from '../../../contracts/events/tenant';
import {
  getPartner,
  listTenantPartners,
  type PartnerView,
} from '../../../projections/partners/query-partners';
import { getPlanByIdentifier } from '../../../projections/plans/query-plans';

const invalid = (field: string, message: string) =>
  new AppError('validation', 'The operation failed. Please validate your selection and try again.', {
    properties: { [field]: message },
  });

/** The industry as events carry it: the autocomplete's code and description when one was chosen. */
export const industryOf = (input: {
  FreeForm: string;
  NAICS2017?: string | null;
  Description?: string | null;
}): Industry => ({
  FreeForm: input.FreeForm,
  NAICS2017: input.NAICS2017 ?? null,
  Description: input.Description ?? null,
});

/** The partner commands name must exist (the tenant decider leaves that to the command layer). */
export const requirePartner = async (request: FastifyRequest, partnerId: number | null): Promise<void> => {
  if (partnerId === null) return;
  const partner = await getPartner(request.server.services.db, { partnerId });
  if (!partner) throw invalid('PartnerId', 'not_found');
};

/** A plan a tenant is moved to must exist. */
export const requirePlan = async (request: FastifyRequest, identifier: string): Promise<void> => {
  const plan = await getPlanByIdentifier(request.server.services.db, { identifier });
  if (!plan) throw invalid('PlanIdentifier', 'not_found');
};

/** A firm's partner for its clients: the first it created (as the tenants read model's ClientsPartner). */
export const clientsPartnerOf = async (
  request: FastifyRequest,
  tenantId: number,
): Promise<PartnerView | null> => {
  const { partners } = await listTenantPartners(request.server.services.db, {
    tenantId,
    readAfter: request.readAfter,
  });
  return partners[0] ?? null;
};
