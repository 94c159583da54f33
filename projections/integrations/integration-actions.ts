import type { CredentialsStatus, CrmSettings } from '../../contracts/events/integration';

export type IntegrationAction =
  'sync' | 'purge' | 'deactivate' | 'activate' | 'lock' | 'unlock' | 'disconnect' | 'delete';

type ActionFacts = {
  active: boolean;
  credentialsStatus: CredentialsStatus;
  locked: boolean;
  settings: CrmSettings | null;
  runningSyncJobId: number | null;
};

/**
 * The buttons of an admin integrations row (admin.md sections 2 and 4): Sync when active and valid,
 * Purge when inactive and valid, Deactivate or Activate when valid, Lock/Unlock while inactive (or
 * without settings), Disconnect when valid, Delete when inactive. Sync and Purge also wait for a
 * running sync to end, since the account refuses them until then.
 */
export const integrationActions = (account: ActionFacts): IntegrationAction[] => {
  const valid = account.credentialsStatus === 'VALID';
  const idle = account.runningSyncJobId === null;
  const actions: IntegrationAction[] = [];
  if (account.active && valid && idle) actions.push('sync');
  if (!account.active && valid && idle) actions.push('purge');
  if (valid) actions.push(account.active ? 'deactivate' : 'activate');
  if (!account.active || account.settings === null) actions.push(account.locked ? 'unlock' : 'lock');
  if (valid) actions.push('disconnect');
  if (!account.active) actions.push('delete');
  return actions;
};
