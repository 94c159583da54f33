import { defaultCrmSettings } from '../../contracts/events/integration';
import { integrationActions } from './integration-actions';

const crm = {
  active: true,
  credentialsStatus: 'VALID' as const,
  locked: false,
  settings: defaultCrmSettings,
  runningSyncJobId: null,
};

describe('the actions of an admin integrations row', () => {
  it('offers Sync, Deactivate and Disconnect on an active account with valid credentials', () => {
    expect(integrationActions(crm)).toEqual(['sync', 'deactivate', 'disconnect']);
  });

  it('offers Purge, Activate, Lock, Disconnect and Delete once inactive', () => {
    expect(integrationActions({ ...crm, active: false })).toEqual([
      'purge',
      'activate',
      'lock',
      'disconnect',
      'delete',
    ]);
    expect(integrationActions({ ...crm, active: false, locked: true })).toContain('unlock');
  });

  it('lets an account without settings be locked while active', () => {
    expect(integrationActions({ ...crm, settings: null })).toEqual([
      'sync',
      'deactivate',
      'lock',
      'disconnect',
    ]);
  });

  it('offers nothing that needs valid credentials when they are invalid or revoked', () => {
    expect(integrationActions({ ...crm, credentialsStatus: 'INVALID' })).toEqual([]);
    expect(integrationActions({ ...crm, active: false, credentialsStatus: 'REVOKED' })).toEqual([
      'lock',
      'delete',
    ]);
  });

  it('holds Sync and Purge back while a sync runs', () => {
    expect(integrationActions({ ...crm, runningSyncJobId: 5 })).toEqual(['deactivate', 'disconnect']);
    expect(integrationActions({ ...crm, active: false, runningSyncJobId: 5 })).not.toContain('purge');
  });
});
