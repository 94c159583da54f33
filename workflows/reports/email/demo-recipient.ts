import { isDemoRecipientEmail } from '../../../contracts/api/recipients';

/**
 * Demo recipients never receive mail (issue 14; portal.md section 2.3, Request Report modal: "Demo
 * recipients (fake client or firm email domains) are disabled"). The rule is the contracts' one
 * (contracts/api/recipients.ts isDemoRecipientEmail), so the modal disables exactly the recipients the
 * report workflow skips: the addresses the product makes up (the DEMO connector's customers bill to
 * `billing@<company>.example`; the demo client's and firm's people live under
 * `demo-client.ledgerwise.local` and `demo-firm.ledgerwise.local`) and the reserved domains `.example`,
 * `.invalid` and `.localhost`. `.test` is not among them on purpose (the test suites' users sign up as
 * `@example.test`), nor is the demo user `demo@ledgerwise.local` (cli/seed-demo.ts), a person trying the
 * product. Here an address with no domain at all is skipped too: nothing could deliver it.
 */
export const isDemoRecipient = (email: string): boolean => {
  const address = email.trim();
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return true;
  return isDemoRecipientEmail(address);
};
