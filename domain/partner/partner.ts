import { match } from 'ts-pattern';
import type { PartnerEvent } from '../../contracts/events/partner';

export type Partner = {
  status: 'created';
  partnerId: number;
  tenantId: number;
  name: string;
  clientPlanIdentifier: string;
  logoUrl: string | null;
  /** null: clients keep the tenant defaults (weekly day 2, monthly day 7). */
  clientWeeklyDay: number | null;
  clientMonthlyDay: number | null;
};

export type PartnerState = { status: 'none' } | Partner;

export const initialPartnerState = (): PartnerState => ({ status: 'none' });

const whenExisting = (state: PartnerState, change: (partner: Partner) => Partner): PartnerState =>
  state.status === 'none' ? state : change(state);

export const evolvePartner = (state: PartnerState, event: PartnerEvent): PartnerState =>
  match(event)
    .with({ type: 'PartnerCreated' }, ({ data }): PartnerState => ({
      status: 'created',
      partnerId: data.PartnerId,
      tenantId: data.TenantId,
      name: data.Name,
      clientPlanIdentifier: data.ClientPlanIdentifier,
      logoUrl: data.LogoURL,
      clientWeeklyDay: null,
      clientMonthlyDay: null,
    }))
    .with({ type: 'PartnerRenamed' }, ({ data }) => whenExisting(state, (p) => ({ ...p, name: data.Name })))
    .with({ type: 'PartnerClientPlanChanged' }, ({ data }) =>
      whenExisting(state, (p) => ({ ...p, clientPlanIdentifier: data.ClientPlanIdentifier })),
    )
    .with({ type: 'PartnerLogoChanged' }, ({ data }) =>
      whenExisting(state, (p) => ({ ...p, logoUrl: data.LogoURL })),
    )
    .with({ type: 'PartnerClientReportDaysChanged' }, ({ data }) =>
      whenExisting(state, (p) => ({
        ...p,
        clientWeeklyDay: data.WeeklyDay,
        clientMonthlyDay: data.MonthlyDay,
      })),
    )
    .exhaustive();
