import type { RecordedEvent } from '../../contracts/events/envelope';
import { PartnerEvent, partnerEventVersions } from '../../contracts/events/partner';
import { TenantEvent } from '../../contracts/events/tenant';
import { defineProjection, type DocumentFields, type ReadModelWrite } from '../framework/projection';
import { parseEvent } from '../parse-event';

/** One document per partner; its Clients are counted at query time from the tenants read model. */
export type PartnerDoc = {
  _id: number;
  position: number;
  partnerId: number;
  tenantId: number;
  name: string;
  /** Trimmed, lower-case Name: sorting without collation, and the name-uniqueness fact. */
  nameKey: string;
  clientPlanIdentifier: string;
  logoUrl: string | null;
  /** ClientsPartner.WeeklyDay and MonthlyDay; null keeps the tenant defaults. */
  clientWeeklyDay: number | null;
  clientMonthlyDay: number | null;
  createdAt: Date;
};

type Collections = 'partners';

const partnerTypes = new Set(Object.keys(partnerEventVersions));
const tenantTypes = new Set(['TenantPurged']);

/** How partner names are compared for uniqueness within a tenant (domain/partner: trimmed, any case). */
export const partnerNameKey = (name: string) => name.trim().toLowerCase();

const set = (id: number, fields: DocumentFields): ReadModelWrite<Collections>[] => [
  { kind: 'set', collection: 'partners', id, fields },
];

const partnerWrites = (event: PartnerEvent): ReadModelWrite<Collections>[] => {
  switch (event.type) {
    case 'PartnerCreated': {
      const { data } = event;
      return set(data.PartnerId, {
        partnerId: data.PartnerId,
        tenantId: data.TenantId,
        name: data.Name,
        nameKey: partnerNameKey(data.Name),
        clientPlanIdentifier: data.ClientPlanIdentifier,
        logoUrl: data.LogoURL,
        clientWeeklyDay: null,
        clientMonthlyDay: null,
        createdAt: new Date(data.CreatedAt),
      });
    }
    case 'PartnerRenamed':
      return set(event.data.PartnerId, { name: event.data.Name, nameKey: partnerNameKey(event.data.Name) });
    case 'PartnerClientPlanChanged':
      return set(event.data.PartnerId, { clientPlanIdentifier: event.data.ClientPlanIdentifier });
    case 'PartnerLogoChanged':
      return set(event.data.PartnerId, { logoUrl: event.data.LogoURL });
    case 'PartnerClientReportDaysChanged':
      return set(event.data.PartnerId, {
        clientWeeklyDay: event.data.WeeklyDay,
        clientMonthlyDay: event.data.MonthlyDay,
      });
  }
};

export const PARTNERS = 'partners';

/** Partners: the admin partners table and a firm's partner settings. */
export const partnersProjection = defineProjection<Collections>({
  name: PARTNERS,
  collections: { partners: 'partners' },
  indexes: { partners: [{ key: { tenantId: 1, nameKey: 1 }, name: 'tenant_name' }] },
  filter: { eventTypes: [...partnerTypes, ...tenantTypes] },
  project: (event: RecordedEvent) => {
    const partner = parseEvent(PartnerEvent, partnerTypes, event);
    if (partner) return partnerWrites(partner);
    const tenant = parseEvent(TenantEvent, tenantTypes, event);
    // A permanent purge may delete the tenant's streams, its partners' included: a rebuild finds none.
    if (tenant?.type === 'TenantPurged' && tenant.data.Permanent)
      return [{ kind: 'delete', collection: 'partners', filter: { tenantId: tenant.data.TenantId } }];
    return [];
  },
});
