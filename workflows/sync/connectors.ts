import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from 'mongodb';
import type { SellerProvider } from '../../contracts/events/seller';
import { createDemoConnector } from '../demo/demo-connector';
import { demoProfileOf } from '../demo/demo-profiles';
import type { LedgerConnector } from './ledger-connector';

/** The connector of each platform; the cloud platforms' connectors arrive with their issue. */
export const connectorsFor = (db: Db) => {
  const demo = createDemoConnector({ profileOf: (sellerId) => demoProfileOf(db, sellerId) });
  return (provider: SellerProvider): LedgerConnector => {
    if (provider === 'DEMO') return demo;
    throw ApplicationFailure.nonRetryable(`Syncing ${provider} sellers is not available yet.`, 'NoConnector');
  };
};
