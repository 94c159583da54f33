import { renderEmail } from './render-email';
import { invitationEmail, recoveryEmail, verificationEmail } from './templates/auth-emails';

describe('transactional emails', () => {
  it('renders an invitation with its accept link and escapes names', async () => {
    const email = await renderEmail(
      'sam@acme.test',
      invitationEmail({
        inviterName: 'Ada <script>',
        tenantName: 'Acme & Sons',
        inviteeName: 'Sam',
        acceptUrl: 'http://127.0.0.1:3000/invitation#invite=abc&token=t',
        withConnectionInstructions: false,
      }),
    );
    expect(email.subject).toBe('Ada <script> invited you to Acme & Sons on Ledgerwise');
    expect(email.html).toContain('href="http://127.0.0.1:3000/invitation#invite=abc&amp;token=t"');
    expect(email.text).toContain('works once and expires in 7 days');
    expect(email.html).toContain('Acme &amp; Sons');
    expect(email.html).not.toContain('<script>');
    expect(email.html).not.toContain('connect the accounting platform');
  });

  it('adds connection instructions to an accounting-admin invitation', async () => {
    const email = await renderEmail(
      'cfo@acme.test',
      invitationEmail({
        inviterName: 'Ada',
        tenantName: 'Acme',
        inviteeName: 'Kim',
        acceptUrl: 'http://x/a',
        withConnectionInstructions: true,
      }),
    );
    expect(email.html).toContain('connect the accounting platform');
    expect(email.text).toContain('connect your accounting platform');
  });

  it('tells the reader the recovery link lasts 30 minutes and works once', async () => {
    const email = await renderEmail(
      'ada@acme.test',
      recoveryEmail({ givenName: 'Ada', resetUrl: 'http://x/r?token=t' }),
    );
    expect(email.text).toContain('valid for 30 minutes, works once');
    expect(email.html).toContain('valid for 30 minutes and works once');
  });

  it('renders the verification email with a plain-text alternative', async () => {
    const email = await renderEmail(
      'ada@acme.test',
      verificationEmail({ givenName: 'Ada', verifyUrl: 'http://x/v?token=t' }),
    );
    expect(email.subject).toBe('Confirm your email address for Ledgerwise');
    expect(email.text).toBe('Hi Ada,\n\nConfirm your email address: http://x/v?token=t');
  });
});
