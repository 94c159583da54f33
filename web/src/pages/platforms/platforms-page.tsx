import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { SellerResponse } from '../../../../contracts/api/sellers';
import { useRunningJobs } from '../../live/running-jobs';
import {
  useConnectSeller,
  useConnectedSellers,
  useDisconnectIntegration,
  useDisconnectSeller,
  useIntegrations,
} from '../../api/queries/platforms';
import { usePlanFeatures } from '../../api/queries/tenants';
import { factsOf } from '../../session/session-facts';
import { useSession } from '../../session/session-query';
import { ActiveCampaignConnectModal } from './active-campaign-connect-modal';
import { ConnectCardGrid } from './connect-card-grid';
import type { CardContext, ConnectCard, PlanGate } from './connect-cards';
import { ConnectedTable, integrationNameOf, type ConnectedRow } from './connected-table';
import {
  ConfirmDisconnectModal,
  ConnectErrorDialog,
  ConnectedModal,
  disconnectTexts,
} from './platform-dialogs';
import { QbdConnectModal } from './qbd-connect-modal';
import { SageConnectModal } from './sage-connect-modal';

/** The names the connect redirects land back with (?connected=qbo). */
const connectedNames: Record<string, { name: string; platform: boolean }> = {
  qbo: { name: 'QuickBooks Online', platform: true },
  xero: { name: 'Xero', platform: true },
  stripe: { name: 'Stripe', platform: true },
  hubspot: { name: 'HubSpot', platform: false },
  revops: { name: 'HubSpot RevOps Pro', platform: false },
  salesforce: { name: 'Salesforce', platform: false },
  google: { name: 'Google', platform: false },
  microsoft: { name: 'Microsoft', platform: false },
};

type OpenModal =
  | { kind: 'sage' }
  | { kind: 'activeCampaign' }
  | { kind: 'qbd'; reinstall: boolean }
  | { kind: 'connected'; name: string; platform: boolean }
  | { kind: 'disconnect'; row: ConnectedRow }
  | null;

/** Connected platforms (/platforms): the table, the connect cards and their flows (portal.md section 2.3). */
export const PlatformsPage = () => {
  const session = useSession();
  const facts = factsOf(session);
  const sellers = useConnectedSellers();
  const integrations = useIntegrations();
  const planFeatures = usePlanFeatures({ isDemo: facts.isDemo });
  const jobs = useRunningJobs();
  const connectSeller = useConnectSeller();
  const disconnectSeller = useDisconnectSeller();
  const disconnectIntegration = useDisconnectIntegration();
  const [search, setSearch] = useSearchParams();
  const [modal, setModal] = useState<OpenModal>(() => {
    const connected = connectedNames[search.get('connected') ?? ''];
    return connected ? { kind: 'connected', ...connected } : null;
  });
  const [flashError] = useState(() => search.get('error'));
  const [errorOpen, setErrorOpen] = useState(flashError !== null);
  const [busy, setBusy] = useState<ConnectCard['id'] | null>(null);
  const [demoFailure, setDemoFailure] = useState<string | null>(null);

  const clearFlash = () => {
    if (search.has('connected') || search.has('error')) setSearch({}, { replace: true });
  };

  const liveSellers = (sellers.data?.rows ?? []).filter((seller) => !seller.disconnected);
  const liveIntegrations = (integrations.data?.rows ?? []).filter((row) => row.disconnectedAt === null);
  const rows: ConnectedRow[] | undefined =
    sellers.data && integrations.data
      ? [
          ...liveSellers.map((seller) => ({ kind: 'seller' as const, id: `seller-${seller.Id}`, seller })),
          ...liveIntegrations.map((integration) => ({
            kind: 'integration' as const,
            id: `integration-${integration.Id}`,
            integration,
          })),
        ]
      : undefined;

  const plan: PlanGate = planFeatures.data
    ? { status: 'known', features: planFeatures.data }
    : planFeatures.isError
      ? { status: 'unavailable' }
      : { status: 'loading' };
  const context: CardContext = {
    isPlatformAdmin: facts.isPlatformAdmin,
    isTenantAdmin: facts.isTenantAdmin,
    isDemo: facts.isDemo,
    hasConnectedSeller: liveSellers.length > 0,
    plan,
  };

  const open = (card: ConnectCard) => {
    setDemoFailure(null);
    if (card.method.kind === 'sage') return setModal({ kind: 'sage' });
    if (card.method.kind === 'activeCampaign') return setModal({ kind: 'activeCampaign' });
    if (card.method.kind === 'qbd') return setModal({ kind: 'qbd', reinstall: false });
    if (card.method.kind === 'demo') {
      setBusy(card.id);
      connectSeller
        .mutateAsync({ provider: 'DEMO' })
        .then(() => setModal({ kind: 'connected', name: card.name, platform: true }))
        .catch((error: unknown) =>
          setDemoFailure(error instanceof Error ? error.message : 'The operation failed.'),
        )
        .finally(() => setBusy(null));
    }
  };

  const disconnect = (row: ConnectedRow) =>
    row.kind === 'seller'
      ? disconnectSeller.mutateAsync(row.seller.Id)
      : disconnectIntegration.mutateAsync(row.integration.Id);

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <h1 className="text-xl font-semibold text-gray-900">Connected platforms</h1>
      <ConnectedTable
        rows={rows}
        failed={Boolean(sellers.isError || integrations.isError)}
        jobs={jobs}
        canManage={facts.isTenantAdmin || facts.isPlatformAdmin}
        onDisconnect={(row) => setModal({ kind: 'disconnect', row })}
        onReinstall={(_seller: SellerResponse) => setModal({ kind: 'qbd', reinstall: true })}
      />
      <section aria-labelledby="connect-heading" className="space-y-3">
        <h2 id="connect-heading" className="text-lg font-semibold text-gray-900">
          Connect a platform
        </h2>
        {demoFailure && (
          <p role="alert" className="text-sm text-red-700">
            {demoFailure}
          </p>
        )}
        <ConnectCardGrid context={context} integrations={liveIntegrations} onOpen={open} busy={busy} />
      </section>

      <SageConnectModal
        open={modal?.kind === 'sage'}
        onClose={() => setModal(null)}
        onConnected={() => setModal({ kind: 'connected', name: 'Sage Intacct', platform: true })}
      />
      <ActiveCampaignConnectModal
        open={modal?.kind === 'activeCampaign'}
        onClose={() => setModal(null)}
        onConnected={() => setModal({ kind: 'connected', name: 'ActiveCampaign', platform: false })}
      />
      {modal?.kind === 'qbd' && (
        <QbdConnectModal open reinstall={modal.reinstall} onClose={() => setModal(null)} />
      )}
      {modal?.kind === 'connected' && (
        <ConnectedModal
          name={modal.name}
          platform={modal.platform}
          onClose={() => {
            setModal(null);
            clearFlash();
          }}
        />
      )}
      {modal?.kind === 'disconnect' && (
        <ConfirmDisconnectModal
          title={`Disconnect ${
            modal.row.kind === 'seller'
              ? (modal.row.seller.CompanyName ?? modal.row.seller.Provider)
              : integrationNameOf(modal.row.integration)
          }`}
          text={modal.row.kind === 'seller' ? disconnectTexts.platform : disconnectTexts.integration}
          onConfirm={() => disconnect(modal.row)}
          onClose={() => setModal(null)}
        />
      )}
      {errorOpen && flashError && (
        <ConnectErrorDialog
          message={flashError}
          onClose={() => {
            setErrorOpen(false);
            clearFlash();
          }}
        />
      )}
    </div>
  );
};
