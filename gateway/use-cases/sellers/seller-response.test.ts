import type { Db } from 'mongodb';
import type { SellerView } from '../../../projections/sellers/query-sellers';
import { sellerProgressBadge, sellerResponses } from './seller-response';

const active = { Status: 'ACTIVE' as const };
const revoked = { Status: 'REVOKED' as const };

describe('the progress badge of a seller', () => {
  it('follows syncing, generating metrics and completed', () => {
    expect(sellerProgressBadge({ Progress: 'syncing', AuthToken: active })).toEqual({
      stage: 'syncing',
      text: 'Syncing...',
    });
    expect(sellerProgressBadge({ Progress: 'generating', AuthToken: active })).toEqual({
      stage: 'generating',
      text: 'Generating metrics...',
    });
    expect(sellerProgressBadge({ Progress: 'completed', AuthToken: active })).toEqual({
      stage: 'completed',
      text: 'Completed',
    });
  });

  it('is absent while the authentication is revoked, whatever the dates say', () => {
    expect(sellerProgressBadge({ Progress: 'completed', AuthToken: revoked })).toBeNull();
    expect(sellerProgressBadge({ Progress: 'syncing', AuthToken: revoked })).toBeNull();
  });

  it('is part of every seller the API answers', async () => {
    const view = {
      Id: 3,
      Progress: 'generating',
      AuthToken: { Owner: null, RefreshedAt: null, Status: 'ACTIVE' },
      FeatureFlags: [],
    } as unknown as SellerView;
    // Without include=Subscriptions nothing is read from the database.
    const [answer] = await sellerResponses({} as Db, {
      sellers: [view],
      include: [],
      tenantId: 1,
      readAfter: {},
    });
    expect(answer?.ProgressBadge).toEqual({ stage: 'generating', text: 'Generating metrics...' });
    expect(answer).not.toHaveProperty('FeatureFlags');
  });
});
