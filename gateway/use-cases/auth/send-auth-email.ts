import type { FastifyRequest } from 'fastify';
import { renderEmail } from '../../../workflows/email/render-email';
import type { EmailContent } from '../../../workflows/email/templates/layout';

/**
 * Sends one of the account emails (verification, recovery, invitation). A failed send is logged and
 * reported to the caller as false; the account change it follows has already been recorded and the
 * user can ask for the email again.
 */
export const sendAuthEmail = async (
  request: FastifyRequest,
  to: string,
  content: EmailContent,
): Promise<boolean> => {
  try {
    await request.server.services.mailer.send(await renderEmail(to, content));
    return true;
  } catch (error) {
    request.log.error({ err: error, subject: content.subject }, 'could not send an account email');
    return false;
  }
};

/** An absolute link into the app or the API, for emails. */
export const publicLink = (request: FastifyRequest, path: string): string =>
  new URL(path, request.server.services.config.PUBLIC_URL).toString();
