import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../commands/command-handler';
import { createCredentialVault } from '../../commands/credential-vault';
import type { Config } from '../../contracts/config';
import type { SellerProvider } from '../../contracts/events/seller';
import { createQbdConnector } from '../connectors/qbd/qbd-connector';
import { createSageIntacctConnector } from '../connectors/sage-intacct/sage-connector';
import { createQuickBooksOnlineConnector } from '../connectors/quickbooks-online/qbo-connector';
import { createStripeConnector } from '../connectors/stripe/stripe-connector';
import { createXeroConnector } from '../connectors/xero/xero-connector';
import { createDemoConnector } from '../demo/demo-connector';
import { demoProfileOf } from '../demo/demo-profiles';
import type { LedgerConnector } from './ledger-connector';

/**
 * What the cloud platforms' connectors need beyond the database: the configuration (API and token
 * URLs, OAuth clients), the write side (the seller's credentials reference, token renewals and
 * revocations are seller events) and the clock.
 */
export type ConnectorDeps = {
  config: Config;
  writeSide: CommandHandlerDeps;
  now: () => Date;
  /** HTTP for QuickBooks Online and Xero; the global fetch unless a test or benchmark passes one. */
  fetch?: typeof fetch;
};

/**
 * The connector of each platform (docs/adr/0043-accounting-connectors.md). Without `deps` (the
 * credential vault and config) only DEMO and QuickBooks Desktop, which needs no vault here, are served.
 */
export const connectorsFor = (db: Db, deps?: ConnectorDeps) => {
  const demo = createDemoConnector({ profileOf: (sellerId) => demoProfileOf(db, sellerId) });
  const cloud: Partial<Record<SellerProvider, LedgerConnector>> = {};
  // QuickBooks Desktop is never called: a Reset leaves a note for the next Web Connector session.
  cloud.QBD = createQbdConnector({ db, now: deps?.now ?? (() => new Date()) });
  if (deps) {
    const vault = createCredentialVault({ db, masterSecret: deps.config.SESSION_SECRET });
    const shared = { db, vault, ...deps };
    cloud.QBO = createQuickBooksOnlineConnector(shared);
    cloud.XERO = createXeroConnector(shared);
    cloud.STRIPE = createStripeConnector(shared);
    cloud.SAGE = createSageIntacctConnector(shared);
  }
  return (provider: SellerProvider): LedgerConnector => {
    if (provider === 'DEMO') return demo;
    const connector = cloud[provider];
    if (connector) return connector;
    // AUTOFY publishes no API (issue 16): its connect card says so, and a sync of one says it plainly.
    throw ApplicationFailure.nonRetryable(
      `Syncing ${provider} sellers is not possible: the platform publishes no API to read their books through.`,
      'NoConnector',
    );
  };
};
