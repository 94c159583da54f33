import type { RecordedEvent } from '../../contracts/events/envelope';
import { IntegrationEvent, type CrmMatchMethod } from '../../contracts/events/integration';
import { TenantEvent } from '../../contracts/events/tenant';
import { defineProjection, type ReadModelWrite } from '../framework/projection';
import { parseEvent } from '../parse-event';

/**
 * The links between a seller's customers and CRM companies (docs/adr/0045-crm-sync.md), one document
 * per linked customer, from the IntegrationCompaniesMatched changes a sync records per seller. The
 * matched companies page and the pushes read them; the CRM records themselves are in the mirror
 * (workflows/integrations/crm/crm-mirror.ts).
 */
export type CrmCompanyLinkDoc = {
  _id: string;
  position: number;
  tenantId: number;
  integrationId: number;
  sellerId: number;
  customerId: string;
  crmId: string;
  method: CrmMatchMethod;
  linkedAt: Date;
};

type Collections = 'links';

export const crmCompanyLinkId = (integrationId: number, sellerId: number, customerId: string) =>
  `${integrationId}:${sellerId}:${customerId}`;

const integrationTypes = new Set(['IntegrationCompaniesMatched', 'IntegrationDeleted']);
const tenantTypes = new Set(['TenantPurged']);

export const CRM_COMPANY_LINKS = 'crm_company_links';

export const crmCompanyLinksProjection = defineProjection<Collections>({
  name: CRM_COMPANY_LINKS,
  collections: { links: CRM_COMPANY_LINKS },
  indexes: {
    links: [
      { key: { integrationId: 1, crmId: 1 }, name: 'integration_company' },
      { key: { integrationId: 1, method: 1 }, name: 'integration_method' },
      { key: { integrationId: 1, sellerId: 1 }, name: 'integration_seller' },
      { key: { tenantId: 1 }, name: 'tenant' },
    ],
  },
  filter: { eventTypes: [...integrationTypes, ...tenantTypes] },
  project: (event: RecordedEvent): ReadModelWrite<Collections>[] => {
    const integration = parseEvent(IntegrationEvent, integrationTypes, event);
    if (integration?.type === 'IntegrationDeleted')
      return [
        { kind: 'delete', collection: 'links', filter: { integrationId: integration.data.integrationId } },
      ];
    if (integration?.type === 'IntegrationCompaniesMatched') {
      const { integrationId, sellerId, linked, unlinked, matchedAt } = integration.data;
      return [
        // One sweep for all the customers unlinked: each sweep ends a write segment.
        ...(unlinked.length === 0
          ? []
          : [
              {
                kind: 'delete',
                collection: 'links',
                filter: { _id: { $in: unlinked.map((id) => crmCompanyLinkId(integrationId, sellerId, id)) } },
              } satisfies ReadModelWrite<Collections>,
            ]),
        ...linked.map((link): ReadModelWrite<Collections> => ({
          kind: 'set',
          collection: 'links',
          id: crmCompanyLinkId(integrationId, sellerId, link.customerId),
          fields: {
            // The integration's events are recorded under its tenant.
            tenantId: event.metadata.tenantId,
            integrationId,
            sellerId,
            customerId: link.customerId,
            crmId: link.crmId,
            method: link.method,
            linkedAt: new Date(matchedAt),
          },
        })),
      ];
    }
    const tenant = parseEvent(TenantEvent, tenantTypes, event);
    if (tenant?.type === 'TenantPurged')
      return [{ kind: 'delete', collection: 'links', filter: { tenantId: tenant.data.TenantId } }];
    return [];
  },
});
