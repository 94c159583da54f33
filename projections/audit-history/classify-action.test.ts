import { classifyAction } from './classify-action';

describe('classifyAction', () => {
  it.each([
    ['TenantCreated', 'CREATE'],
    ['UserRegistered', 'CREATE'],
    ['SellerConnected', 'CREATE'],
    ['IntegrationConnected', 'CREATE'],
    ['UserJoinedTenant', 'CREATE'],
    ['SellerDeleted', 'DELETE'],
    ['TenantPurged', 'DELETE'],
    ['UserDeleted', 'DELETE'],
    ['UserLeftTenant', 'DELETE'],
    ['RecipientRemoved', 'DELETE'],
    ['TenantRenamed', 'UPDATE'],
    ['SellerReconnected', 'UPDATE'],
    ['IntegrationDisconnected', 'UPDATE'],
    ['IntegrationPurgeRequested', 'UPDATE'],
    ['TenantDisabled', 'UPDATE'],
  ])('%s is %s', (type, action) => {
    expect(classifyAction(type)).toBe(action);
  });
});
