import {
  qbdSyncWarning,
  recencyOf,
  sellerStatus,
  sellerSyncActions,
  tenantSellerProgress,
} from './seller-status';

const now = new Date('2026-01-10T12:00:00.000Z');
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
const daysAgo = (days: number) => minutesAgo(days * 24 * 60);

describe('recency of collection and metrics dates', () => {
  it('is recent under 60 minutes, stale at 60 minutes or more, and stale when empty', () => {
    expect(recencyOf(minutesAgo(0), now)).toBe('recent');
    expect(recencyOf(new Date(now.getTime() - 3_599_999), now)).toBe('recent');
    expect(recencyOf(minutesAgo(60), now)).toBe('stale');
    expect(recencyOf(daysAgo(3), now)).toBe('stale');
    expect(recencyOf(null, now)).toBe('stale');
  });
});

describe('the seller status text', () => {
  const qbo = { provider: 'QBO' as const, authTokenStatus: 'ACTIVE' as const, collectionDate: null };

  it('says Authentication Revoked first, even for a synced seller', () => {
    expect(sellerStatus({ ...qbo, authTokenStatus: 'REVOKED', collectionDate: minutesAgo(5) }).text).toBe(
      'Authentication Revoked',
    );
  });

  it('gives the last sync date once collected', () => {
    expect(sellerStatus({ ...qbo, collectionDate: new Date('2026-01-09T23:30:00.000Z') })).toEqual({
      kind: 'synced',
      text: 'Last sync on 2026-01-09',
      lastSync: '2026-01-09T23:30:00.000Z',
    });
  });

  it('waits for installation on QBD and for the sync elsewhere', () => {
    expect(sellerStatus({ ...qbo, provider: 'QBD' }).text).toBe('Pending installation...');
    expect(sellerStatus(qbo).text).toBe('Pending sync...');
  });
});

describe('the QBD sync warning', () => {
  it('shows for QuickBooks Desktop only, once the last sync is more than 10 days old', () => {
    expect(qbdSyncWarning({ provider: 'QBD', collectionDate: daysAgo(11) }, now)).toBe(true);
    expect(qbdSyncWarning({ provider: 'QBD', collectionDate: daysAgo(10) }, now)).toBe(false);
    expect(qbdSyncWarning({ provider: 'QBD', collectionDate: null }, now)).toBe(false);
    expect(qbdSyncWarning({ provider: 'QBO', collectionDate: daysAgo(30) }, now)).toBe(false);
  });
});

describe('seller progress of a tenant', () => {
  const synced = { collectionDate: daysAgo(1), metricsDate: null };
  const done = { collectionDate: daysAgo(1), metricsDate: daysAgo(1) };
  const fresh = { collectionDate: null, metricsDate: null };

  it('is pending without sellers, else the least advanced seller’s stage', () => {
    expect(tenantSellerProgress([])).toBe('pending');
    expect(tenantSellerProgress([done, fresh])).toBe('syncing');
    expect(tenantSellerProgress([done, synced])).toBe('generating');
    expect(tenantSellerProgress([done, done])).toBe('completed');
  });
});

describe('sync actions offered on a seller', () => {
  it('offers Populate before the first sync, Sync and Repopulate after, and only Reset for QBD', () => {
    expect(sellerSyncActions({ provider: 'XERO', collectionDate: null })).toEqual(['populate']);
    expect(sellerSyncActions({ provider: 'XERO', collectionDate: daysAgo(1) })).toEqual([
      'sync',
      'repopulate',
    ]);
    expect(sellerSyncActions({ provider: 'QBD', collectionDate: null })).toEqual([]);
    expect(sellerSyncActions({ provider: 'QBD', collectionDate: daysAgo(1) })).toEqual(['repopulate']);
  });
});
