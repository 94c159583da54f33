import { match } from 'ts-pattern';
import type {
  BusinessModel,
  DisableReason,
  Industry,
  LogoContentType,
  ReportingSettings,
  TenantClassification,
  TenantEvent,
  UsageType,
} from '../../contracts/events/tenant';

export type TenantLifecycle = 'active' | 'disabled' | 'purged';

export type Tenant = {
  status: TenantLifecycle;
  tenantId: number;
  name: string;
  friendlyName: string | null;
  classification: TenantClassification;
  usageType: UsageType;
  businessModel: BusinessModel | null;
  industry: Industry | null;
  partnerId: number | null;
  referral: { referrer: string | null; referrerIdentifier: string | null; landingPage: string | null };
  activeCampaignId: string | null;
  planIdentifier: string | null;
  reporting: ReportingSettings;
  /** The approved logo shown on reports (Settings.Partner.Logo), and one waiting for staff review. */
  logo: { approvedUrl: string | null; pending: { url: string; contentType: LogoContentType } | null };
  disableReason: DisableReason | null;
  /** Set once a purge was permanent: nothing of the tenant may be used any more. */
  permanentlyPurged: boolean;
};

export type TenantState = { status: 'none' } | Tenant;

export const initialTenantState = (): TenantState => ({ status: 'none' });

const whenExisting = (state: TenantState, change: (tenant: Tenant) => Tenant): TenantState =>
  state.status === 'none' ? state : change(state);

export const evolveTenant = (state: TenantState, event: TenantEvent): TenantState =>
  match(event)
    .with({ type: 'TenantCreated' }, ({ data }): TenantState => ({
      status: 'active',
      tenantId: data.TenantId,
      name: data.Name,
      friendlyName: data.FriendlyName,
      classification: data.Classification,
      usageType: data.UsageType,
      businessModel: data.BusinessModel,
      industry: data.Industry,
      partnerId: data.PartnerId,
      referral: {
        referrer: data.Referrer,
        referrerIdentifier: data.ReferrerIdentifier,
        landingPage: data.LandingPage,
      },
      activeCampaignId: null,
      planIdentifier: data.PlanIdentifier,
      reporting: data.Reporting,
      logo: { approvedUrl: null, pending: null },
      disableReason: null,
      permanentlyPurged: false,
    }))
    .with({ type: 'TenantRenamed' }, ({ data }) => whenExisting(state, (t) => ({ ...t, name: data.Name })))
    .with({ type: 'TenantFriendlyNameChanged' }, ({ data }) =>
      whenExisting(state, (t) => ({ ...t, friendlyName: data.FriendlyName })),
    )
    .with({ type: 'TenantClassificationChanged' }, ({ data }) =>
      whenExisting(state, (t) => ({ ...t, classification: data.Classification })),
    )
    .with({ type: 'TenantBusinessModelChanged' }, ({ data }) =>
      whenExisting(state, (t) => ({ ...t, businessModel: data.BusinessModel })),
    )
    .with({ type: 'TenantIndustryChanged' }, ({ data }) =>
      whenExisting(state, (t) => ({ ...t, industry: data.Industry })),
    )
    .with({ type: 'TenantUsageTypeChanged' }, ({ data }) =>
      whenExisting(state, (t) => ({ ...t, usageType: data.UsageType })),
    )
    .with({ type: 'TenantPartnerChanged' }, ({ data }) =>
      whenExisting(state, (t) => ({ ...t, partnerId: data.PartnerId })),
    )
    .with({ type: 'TenantActiveCampaignIdChanged' }, ({ data }) =>
      whenExisting(state, (t) => ({ ...t, activeCampaignId: data.ActiveCampaignId })),
    )
    .with({ type: 'TenantReferralChanged' }, ({ data }) =>
      whenExisting(state, (t) => ({
        ...t,
        referral: {
          referrer: data.Referrer,
          referrerIdentifier: data.ReferrerIdentifier,
          landingPage: data.LandingPage,
        },
      })),
    )
    .with({ type: 'TenantReportingSettingsChanged' }, ({ data }) =>
      whenExisting(state, (t) => ({ ...t, reporting: data.Reporting })),
    )
    .with({ type: 'TenantLogoSubmitted' }, ({ data }) =>
      whenExisting(state, (t) => ({
        ...t,
        logo: { ...t.logo, pending: { url: data.LogoURL, contentType: data.ContentType } },
      })),
    )
    .with({ type: 'TenantLogoReviewed' }, ({ data }) =>
      whenExisting(state, (t) => ({
        ...t,
        logo: {
          approvedUrl: data.Decision === 'APPROVED' ? data.LogoURL : t.logo.approvedUrl,
          pending: null,
        },
      })),
    )
    .with({ type: 'TenantPlanChanged' }, ({ data }) =>
      whenExisting(state, (t) => ({ ...t, planIdentifier: data.PlanIdentifier })),
    )
    .with({ type: 'TenantDisabled' }, ({ data }) =>
      whenExisting(state, (t) => ({ ...t, status: 'disabled', disableReason: data.Reason })),
    )
    .with({ type: 'TenantRestored' }, () =>
      whenExisting(state, (t) => ({ ...t, status: 'active', disableReason: null })),
    )
    .with({ type: 'TenantPurged' }, ({ data }) =>
      whenExisting(state, (t) => ({ ...t, status: 'purged', permanentlyPurged: data.Permanent })),
    )
    .exhaustive();
