import type { World } from './gateway-world';
import { waitForEmail } from './maildev';

/** The invitation page's link as emailed: `/invitation#invite=<Uuid>&token=<secret token>`. */
export type InvitationLink = { inviteId: string; token: string; path: string };

/**
 * Reads an invitation email to `to` from MailDev (the first, or the one after `after` others) and takes
 * its link apart, as the web page does.
 */
export const invitationLinkOf = async (world: World, to: string, after = 0): Promise<InvitationLink> => {
  const mail = await waitForEmail(world.config, { to, subject: /invited you to/, after });
  const link = mail.links.find((l) => new URL(l).pathname === '/invitation');
  if (!link) throw new Error(`the invitation email to ${to} has no /invitation link`);
  const url = new URL(link);
  const fragment = new URLSearchParams(url.hash.slice(1));
  return {
    inviteId: fragment.get('invite') ?? '',
    token: fragment.get('token') ?? '',
    path: `${url.pathname}${url.search}`,
  };
};
