import { crc32, deflateSync } from 'node:zlib';
import type { Db } from 'mongodb';
import { Binary } from 'mongodb';
import type { Currency, TenantClassification, UsageType } from '../../contracts/events/tenant';
import type { SellerProvider } from '../../contracts/events/seller';
import type { LedgerPage } from '../../contracts/ledger';
import { currentCollection } from '../../projections/framework/read-model-versions';
import {
  sellersProjection,
  type SellerCollections,
  type SellerDoc,
} from '../../projections/sellers/sellers-projection';
import type { PartnerDoc } from '../../projections/partners/partners-projection';
import { partnersCollection, tenantsCollection } from '../../projections/tenants/tenant-view';
import type { TenantDocument } from '../../projections/tenants/tenants-projection';
import { fetchDemoPage } from '../../workflows/demo/demo-connector';
import {
  ensureLedgerIndexes,
  ledgerCollections,
  ledgerDocId,
  ledgerEntities,
} from '../../workflows/ledger/ledger-collections';
import type { Exclusions } from '../../workflows/metrics/compute-metrics';
import { storeMetrics } from '../../workflows/metrics/metric-store';
import { scanSellerMetrics } from '../../workflows/metrics/scan-seller-metrics';

/**
 * Read models of a tenant and its seller, written as the projections would leave them, and a seller's
 * ledger with its metrics computed by the real metrics code: what the report renderers read.
 */
export type TenantSeed = {
  tenantId: number;
  name: string;
  friendlyName?: string | null;
  currency?: Currency;
  naics?: string | null;
  classification?: TenantClassification;
  usageType?: UsageType;
  partnerId?: number | null;
  logoUrl?: string | null;
  status?: TenantDocument['status'];
};

export const seedTenant = async (db: Db, seed: TenantSeed) => {
  const doc: TenantDocument = {
    _id: seed.tenantId,
    position: 1,
    Name: seed.name,
    sortName: seed.name.toLowerCase(),
    FriendlyName: seed.friendlyName ?? null,
    Classification: seed.classification ?? 'BUSINESS',
    UsageType: seed.usageType ?? 'NORMAL',
    BusinessModel: 'B2B',
    Industry:
      seed.naics === undefined || seed.naics === null
        ? null
        : { FreeForm: `Industry ${seed.naics}`, NAICS2017: seed.naics, Description: null },
    PartnerId: seed.partnerId ?? null,
    Referrer: null,
    ReferrerIdentifier: null,
    LandingPage: null,
    PlanIdentifier: 'growth_business',
    Reporting: {
      RetentionPeriod: 'AUTO',
      WeeklyDay: 2,
      MonthlyDay: 7,
      Currency: seed.currency ?? 'USD',
      WeeklyEmailsDisabled: false,
      MonthlyEmailsDisabled: false,
    },
    LogoURL: seed.logoUrl ?? null,
    PendingLogoURL: null,
    PendingLogoContentType: null,
    LogoSubmittedAt: null,
    LastLogoDecision: null,
    LogoReviewedAt: null,
    CreatedBy: null,
    createdAt: new Date('2021-01-01T00:00:00.000Z'),
    status: seed.status ?? 'active',
    deletedAt: null,
    disableReason: null,
    purged: false,
    purgedAt: null,
  };
  await (await tenantsCollection(db)).insertOne(doc);
  return doc;
};

/** Stores an uploaded logo as the gateway's logo store does, and answers the URL naming it. */
export const seedLogo = async (db: Db, tenantId: number, contentType: string, bytes: Buffer) => {
  const id = `logo-${tenantId}`;
  await db.collection<{ _id: string; [field: string]: unknown }>('tenant_logos').insertOne({
    _id: id,
    tenantId,
    contentType,
    bytes: new Binary(bytes),
    size: bytes.length,
    uploadedAt: new Date(),
    uploadedBy: 1,
  });
  return `/api/tenants/${tenantId}/logo?v=${id}`;
};

export type SellerSeed = {
  sellerId: number;
  tenantId: number;
  companyName: string | null;
  provider?: SellerProvider;
  exclusions?: Exclusions;
  metricsDate?: Date | null;
  deleted?: boolean;
  active?: boolean;
};

export const seedSeller = async (db: Db, seed: SellerSeed) => {
  const at = new Date('2022-01-01T00:00:00.000Z');
  const doc: SellerDoc = {
    _id: seed.sellerId,
    position: 1,
    sellerId: seed.sellerId,
    tenantId: seed.tenantId,
    provider: seed.provider ?? 'DEMO',
    companyName: seed.companyName,
    companyNameSort: (seed.companyName ?? '').toLowerCase(),
    url: null,
    authMethod: 'oauth2',
    authTokenOwner: null,
    authTokenStatus: 'ACTIVE',
    authTokenRefreshedAt: at,
    companyFilePath: null,
    active: seed.active ?? true,
    disconnected: false,
    disconnectedAt: null,
    deleted: seed.deleted ?? false,
    deletedAt: null,
    createdAt: at,
    collectionDate: seed.metricsDate ?? null,
    metricsDate: seed.metricsDate ?? null,
    featureFlags: seed.exclusions
      ? {
          'exclusions:CustomerIds': seed.exclusions.customerIds,
          'exclusions:ProductIds': seed.exclusions.productIds,
        }
      : {},
    runningSyncId: null,
    runningSyncMode: null,
    runningSyncRequestedAt: null,
    runningSyncStartedAt: null,
    lastSyncId: null,
    lastSyncOutcome: null,
    lastSyncFinishedAt: null,
    lastSyncFailure: null,
  };
  await (
    await currentCollection<SellerCollections, SellerDoc>(db, sellersProjection, 'sellers')
  ).insertOne(doc);
  return doc;
};

/** A generated DEMO ledger of a seller up to `until` (deterministic for a seed). */
export const demoLedger = (
  sellerId: number,
  profile: { seed: number; startDate: string; invoicesPerYear: number },
  until: Date,
): LedgerPage =>
  fetchDemoPage(profile, { sellerId, since: null, until, cursor: null, pageSize: 10_000_000 }).page;

/** Writes a ledger as the sync stores it, then runs and stores the seller's metrics as of `asOf`. */
export const seedLedgerAndMetrics = async (
  db: Db,
  seller: { sellerId: number; tenantId: number },
  ledger: LedgerPage,
  options: { asOf: Date; exclusions?: Exclusions },
) => {
  await ensureLedgerIndexes(db);
  for (const entity of ledgerEntities) {
    const docs = ledger[entity].map((record) => ({
      ...record,
      _id: ledgerDocId(seller.sellerId, record.providerId),
      tenantId: seller.tenantId,
      epoch: 1,
      hash: 'seeded',
      changedAt: options.asOf,
    }));
    for (let i = 0; i < docs.length; i += 2000)
      await db
        .collection<{ _id: string }>(ledgerCollections[entity])
        .insertMany(docs.slice(i, i + 2000), { ordered: false });
  }
  const exclusions = options.exclusions ?? { customerIds: [], productIds: [] };
  const metrics = await scanSellerMetrics(db, {
    sellerId: seller.sellerId,
    exclusions,
    asOf: options.asOf,
    retention: 'AUTO',
  });
  await storeMetrics(
    db,
    { sellerId: seller.sellerId, tenantId: seller.tenantId, asOf: options.asOf, generation: 'seeded' },
    metrics,
  );
};

/** A valid PNG of one colour, made here so the tests need no image file. */
export const solidPng = (width: number, height: number, rgb: [number, number, number]): Buffer => {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => rgb[i % 3] ?? 0)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

/** A partner owned by a firm, whose clients are the tenants naming it (PartnerId). */
export const seedPartner = async (db: Db, partner: { partnerId: number; tenantId: number; name: string }) => {
  const doc: PartnerDoc = {
    _id: partner.partnerId,
    position: 1,
    partnerId: partner.partnerId,
    tenantId: partner.tenantId,
    name: partner.name,
    nameKey: partner.name.toLowerCase(),
    clientPlanIdentifier: 'free_client',
    logoUrl: null,
    clientWeeklyDay: null,
    clientMonthlyDay: null,
    createdAt: new Date('2022-01-01T00:00:00.000Z'),
  };
  await (await partnersCollection(db)).insertOne(doc);
};
