import { Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import type { SessionResponse } from '../../../contracts/auth';
import { useLiveUpdates } from '../live/use-live-updates';
import { LoadingStatus } from '../routing/lazy-page';
import { WelcomeModal } from '../pages/welcome/welcome-modal';
import { factsOf } from '../session/session-facts';
import { SignedInSession, useSessionQuery } from '../session/session-query';
import { useIdleLogout } from '../session/use-idle-logout';
import { useConnectedSellers } from '../api/queries/platforms';
import { IdleBanner } from './idle-banner';
import { MobileMenu } from './mobile-menu';
import { ShellFooter } from './shell-footer';
import { Sidebar } from './sidebar';
import type { SidebarFacts } from './sidebar-links';
import { tenantSwitcherId } from './tenant-switcher';
import { TopBar } from './top-bar';

const focusSwitcher = () => document.getElementById(tenantSwitcherId)?.focus();

/** The signed-in frame: sidebar, top bar, idle warning, content and footer (portal.md section 2.3). */
export const DashboardShell = () => {
  const { data } = useSessionQuery();
  const [kept, setKept] = useState<SessionResponse | null>(data ?? null);
  if (data && data !== kept) setKept(data);
  const session = data ?? kept;
  if (!session) return null;
  return (
    <SignedInSession.Provider value={session}>
      <ShellFrame session={session} />
    </SignedInSession.Provider>
  );
};

const ShellFrame = ({ session }: { session: SessionResponse }) => {
  const sellers = useConnectedSellers();
  const facts: SidebarFacts = {
    ...factsOf(session),
    hasConnectedSeller: (sellers.data?.rows.length ?? 0) > 0,
  };
  const idle = useIdleLogout(session.idleTimeoutSeconds);
  useLiveUpdates(session);
  const showMain = session.tenants.length > 0 || session.user.isPlatformAdmin;

  return (
    <div className="flex min-h-screen bg-gray-50">
      <a
        href="#main-content"
        className="sr-only z-50 rounded bg-white px-3 py-2 focus:not-sr-only focus:absolute focus:left-2 focus:top-2"
      >
        Skip to content
      </a>
      <aside className="hidden w-60 shrink-0 lg:block">
        <div className="sticky top-0 h-screen">
          <Sidebar facts={facts} onSwitchCompanies={focusSwitcher} />
        </div>
      </aside>
      <MobileMenu facts={facts} onSwitchCompanies={focusSwitcher} />
      <div className="flex min-w-0 flex-1 flex-col">
        {idle === 'warning' && <IdleBanner />}
        <TopBar />
        <main id="main-content" tabIndex={-1} className="flex-1 p-3 sm:p-6">
          {showMain ? (
            // A page's chunk loads inside the frame, so the sidebar and top bar stay put.
            <Suspense fallback={<LoadingStatus />}>
              <Outlet />
            </Suspense>
          ) : (
            <WelcomeModal />
          )}
        </main>
        <ShellFooter />
      </div>
    </div>
  );
};
