/**
 * Demo recipients never receive mail (issue 14; portal.md section 2.3, Request Report modal: "Demo
 * recipients (fake client or firm email domains) are disabled"). The addresses the product makes up
 * itself are demo addresses:
 * - the DEMO connector's customers bill to `billing@<company>.example` (workflows/demo/demo-connector.ts),
 *   and `.example`, `.invalid` and `.localhost` are the reserved top-level domains of RFC 2606 and
 *   RFC 6761 that no mailbox can have;
 * - the demo client's and demo firm's made-up people live under `demo-client.ledgerwise.local` and
 *   `demo-firm.ledgerwise.local`.
 * `.test`, also reserved, is left out on purpose: the test suites' users sign up as `@example.test`
 * and must receive their reports in MailDev. The demo user `demo@ledgerwise.local` (cli/seed-demo.ts)
 * is a person trying the product and gets the reports they ask for.
 */
const demoDomains = ['demo-client.ledgerwise.local', 'demo-firm.ledgerwise.local'];
const reservedTopLevelDomains = ['example', 'invalid', 'localhost'];

export const isDemoRecipient = (email: string): boolean => {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  // No domain at all is no deliverable address either: never send to it.
  if (at <= 0 || at === address.length - 1) return true;
  const domain = address.slice(at + 1).replace(/\.$/, '');
  const topLevel = domain.split('.').at(-1) ?? '';
  return (
    demoDomains.some((demo) => domain === demo || domain.endsWith(`.${demo}`)) ||
    reservedTopLevelDomains.includes(topLevel)
  );
};
