/**
 * Who may open a page (portal.md section 2.1):
 * - any: everyone (the 404 page, email-verified, the failed-link pages);
 * - guestOnly: guests; a signed-in user is sent to / (login, register, forgot);
 * - signedIn, advisor, tenantAdmin, platformAdmin: guests go to /login with a return address, users
 *   without the standing go to /.
 */
export type RouteAccess = 'any' | 'guestOnly' | 'signedIn' | 'advisor' | 'tenantAdmin' | 'platformAdmin';

export type RouteMeta = {
  /** The title is "Ledgerwise - <name>". */
  name: string;
  access: RouteAccess;
  /** Opening the page ends the session (an invitation that is no longer valid). */
  forceLogout?: boolean;
};

export const titleOf = (meta: Pick<RouteMeta, 'name'>): string => `Ledgerwise - ${meta.name}`;
