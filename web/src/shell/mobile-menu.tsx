import { useAtom } from 'jotai';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { useAppServices } from '../session/app-services-context';
import { endSession } from '../session/session-actions';
import { mobileMenuOpenAtom } from '../state/client-choices';
import { Sidebar } from './sidebar';
import type { SidebarFacts } from './sidebar-links';

const menuLink =
  'block rounded-md px-3 py-2 text-sm font-medium text-white/90 hover:bg-white/10 focus-visible:outline focus-visible:outline-2 focus-visible:outline-white';

/** Small screens: the sidebar's links plus Profile and Sign out in a panel; Escape closes it. */
export const MobileMenu = ({
  facts,
  onSwitchCompanies,
}: {
  facts: SidebarFacts;
  onSwitchCompanies: () => void;
}) => {
  const services = useAppServices();
  const [open, setOpen] = useAtom(mobileMenuOpenAtom);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, setOpen]);

  if (!open) return null;
  const close = () => setOpen(false);
  return (
    <div id="mobile-menu" className="fixed inset-0 z-30 flex lg:hidden">
      <div className={`flex w-72 max-w-[85vw] flex-col ${facts.isFirm ? 'bg-emerald-800' : 'bg-gray-950'}`}>
        <div className="flex-1 overflow-y-auto">
          <Sidebar
            facts={facts}
            onNavigate={close}
            onSwitchCompanies={() => {
              close();
              onSwitchCompanies();
            }}
          />
        </div>
        <div className="border-t border-white/20 p-3">
          <Link to="/profile" className={menuLink} onClick={close}>
            Profile
          </Link>
          <button
            type="button"
            className={`${menuLink} w-full text-left`}
            onClick={() => void endSession(services)}
          >
            Sign out
          </button>
        </div>
      </div>
      <button type="button" aria-label="Close menu" className="flex-1 bg-black/40" onClick={close} />
    </div>
  );
};
