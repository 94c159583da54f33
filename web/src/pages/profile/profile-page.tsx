import { Card } from '@tremor/react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { ErrorCallout } from '../../components/error-callout';
import { useSession } from '../../session/session-query';
import { tableTexts } from '../../table/empty-texts';
import { useUser } from '../../api/queries/users';
import { MyProfileForm } from './my-profile-form';
import { SecurityTab } from './security-tab';

const tabs = [
  { id: 'profile', label: 'My Profile' },
  { id: 'security', label: 'Security' },
] as const;
type TabId = (typeof tabs)[number]['id'];

/** /profile: the tabs My Profile and Security (arrow keys move between tabs, as ARIA tabs do). */
export const ProfilePage = () => {
  const session = useSession();
  const user = useUser(session.user.Id);
  const [tab, setTab] = useState<TabId>('profile');
  const buttons = useRef<Record<string, HTMLButtonElement | null>>({});

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const index = tabs.findIndex((entry) => entry.id === tab);
    const next = tabs[(index + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]!;
    setTab(next.id);
    buttons.current[next.id]?.focus();
  };

  return (
    <Card className="mx-auto max-w-3xl">
      <h1 className="text-xl font-semibold text-gray-900">Profile</h1>
      <div
        role="tablist"
        aria-label="Profile"
        className="mt-4 flex gap-2 border-b border-gray-200"
        onKeyDown={onKeyDown}
      >
        {tabs.map((entry) => (
          <button
            key={entry.id}
            ref={(button) => {
              buttons.current[entry.id] = button;
            }}
            type="button"
            role="tab"
            id={`tab-${entry.id}`}
            aria-selected={tab === entry.id}
            aria-controls={`panel-${entry.id}`}
            tabIndex={tab === entry.id ? 0 : -1}
            onClick={() => setTab(entry.id)}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600 ${tab === entry.id ? 'border-blue-600 text-blue-700' : 'border-transparent text-gray-600'}`}
          >
            {entry.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="pt-4">
        {tab === 'profile' ? (
          user.isError ? (
            <ErrorCallout message={user.error.message} />
          ) : user.data ? (
            <MyProfileForm
              user={user.data}
              tenantId={session.tenant?.Id ?? null}
              isPlatformAdmin={session.user.isPlatformAdmin}
            />
          ) : (
            <p role="status">{tableTexts.loading}</p>
          )
        ) : (
          <SecurityTab provider={session.user.AuthProvider} />
        )}
      </div>
    </Card>
  );
};
