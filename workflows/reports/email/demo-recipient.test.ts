import { isDemoRecipient } from './demo-recipient';

describe('demo recipients', () => {
  it('are the made-up addresses of the demo customers, client and firm', () => {
    expect(isDemoRecipient('billing@acme-supplies.example')).toBe(true);
    expect(isDemoRecipient('Billing@Northwind.EXAMPLE')).toBe(true);
    expect(isDemoRecipient('dana@demo-client.ledgerwise.local')).toBe(true);
    expect(isDemoRecipient('ada@demo-firm.ledgerwise.local')).toBe(true);
    expect(isDemoRecipient('ops@eu.demo-firm.ledgerwise.local')).toBe(true);
    expect(isDemoRecipient('nobody@nowhere.invalid')).toBe(true);
    expect(isDemoRecipient('ops@mail.localhost')).toBe(true);
  });

  it('treats an address without a domain as undeliverable', () => {
    expect(isDemoRecipient('no-at-sign')).toBe(true);
    expect(isDemoRecipient('trailing@')).toBe(true);
  });

  it('lets real people through, the demo user and the test suites included', () => {
    expect(isDemoRecipient('cfo@acme.com')).toBe(false);
    expect(isDemoRecipient('demo@ledgerwise.local')).toBe(false);
    expect(isDemoRecipient('ada.run1@example.test')).toBe(false);
    expect(isDemoRecipient('someone@example.com')).toBe(false);
    expect(isDemoRecipient('me@notdemo-client.ledgerwise.local')).toBe(false);
  });
});
