import { isDangerState, recipientStateAction } from './recipient-state';

describe('a recipient row’s state', () => {
  it('offers deactivation for ACTIVE and ADMIN, activation for INACTIVE and DEACTIVATED', () => {
    expect(recipientStateAction('ACTIVE')).toBe('deactivate');
    expect(recipientStateAction('ADMIN')).toBe('deactivate');
    expect(recipientStateAction('INACTIVE')).toBe('activate');
    expect(recipientStateAction('DEACTIVATED')).toBe('activate');
  });

  it('shows INACTIVE and DEACTIVATED rows as danger', () => {
    expect(['ACTIVE', 'ADMIN', 'INACTIVE', 'DEACTIVATED'].map((s) => isDangerState(s as never))).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });
});
