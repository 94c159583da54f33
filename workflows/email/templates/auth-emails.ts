import { escapeHtml, layout, type EmailContent } from './layout';

/** An invitation to join a company (portal.md: invite user form; accounting-admin invites add connection steps). */
/** The invitation link is personal (docs/adr/0020-invitation-tokens.md): say so where it is read. */
const linkTerms = 'The link is for you alone, works once and expires in 7 days.';

export const invitationEmail = (input: {
  inviterName: string;
  tenantName: string;
  inviteeName: string;
  acceptUrl: string;
  /** ACCOUNTING_ADMIN invites: the invitee is asked to connect the accounting platform. */
  withConnectionInstructions: boolean;
}): EmailContent => {
  const subject = `${input.inviterName} invited you to ${input.tenantName} on Ledgerwise`;
  const steps = input.withConnectionInstructions
    ? [
        'After you accept, open <b>Platforms</b> and connect the accounting platform you keep the books in (QuickBooks, Xero or Sage Intacct). Ledgerwise syncs customers, invoices and payments and emails the first report, usually within 10 minutes.',
      ]
    : [];
  return {
    subject,
    mjml: layout({
      preview: subject,
      heading: `Join ${input.tenantName}`,
      paragraphs: [
        `Hi ${escapeHtml(input.inviteeName)},`,
        `${escapeHtml(input.inviterName)} invited you to work on <b>${escapeHtml(input.tenantName)}</b> in Ledgerwise, the receivables and revenue reporting portal.`,
        ...steps,
      ],
      action: { label: 'Accept invitation', url: input.acceptUrl },
      footnote: `${linkTerms} If you were not expecting this invitation, you can ignore this email.`,
    }),
    text: [
      `Hi ${input.inviteeName},`,
      `${input.inviterName} invited you to work on ${input.tenantName} in Ledgerwise.`,
      ...(input.withConnectionInstructions
        ? ['After you accept, open Platforms and connect your accounting platform.']
        : []),
      `Accept the invitation: ${input.acceptUrl}`,
      linkTerms,
    ].join('\n\n'),
  };
};

/** Confirms a new account's email address. */
export const verificationEmail = (input: { givenName: string; verifyUrl: string }): EmailContent => ({
  subject: 'Confirm your email address for Ledgerwise',
  mjml: layout({
    preview: 'Confirm your email address to finish setting up Ledgerwise.',
    heading: 'Confirm your email address',
    paragraphs: [
      `Hi ${escapeHtml(input.givenName)},`,
      'Please confirm that this is your email address so we can send your reports here.',
    ],
    action: { label: 'Confirm email address', url: input.verifyUrl },
    footnote: 'If you did not create a Ledgerwise account, you can ignore this email.',
  }),
  text: `Hi ${input.givenName},\n\nConfirm your email address: ${input.verifyUrl}`,
});

/** A password recovery link (portal.md: valid 30 minutes, single use). */
export const recoveryEmail = (input: { givenName: string; resetUrl: string }): EmailContent => ({
  subject: 'Reset your Ledgerwise password',
  mjml: layout({
    preview: 'A link to choose a new password, valid for 30 minutes.',
    heading: 'Reset your password',
    paragraphs: [
      `Hi ${escapeHtml(input.givenName)},`,
      'We received a request to reset your password. The link below is valid for 30 minutes and works once.',
    ],
    action: { label: 'Choose a new password', url: input.resetUrl },
    footnote:
      'If you did not ask to reset your password, you can ignore this email; your password stays as it is.',
  }),
  text: `Hi ${input.givenName},\n\nChoose a new password (valid for 30 minutes, works once): ${input.resetUrl}`,
});
