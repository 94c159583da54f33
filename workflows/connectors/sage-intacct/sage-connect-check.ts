import type { Config } from '../../../contracts/config';
import { AppError } from '../../../contracts/errors';
import { checkSageLogin, SageError, type SageLogin } from './sage-client';

/**
 * The Sage connect form's check (portal.md section 2.3): the company, user and password are tried
 * with a real call before they are stored, and a refusal answers 422 with Sage's own message on the
 * password field. Without our sender credentials nothing can be tried: production refuses to
 * connect, development and tests connect untried (ADR 44, Sage section).
 */
export const checkSageConnectLogin = async (
  config: Pick<Config, 'NODE_ENV' | 'SAGE_INTACCT_API_URL' | 'SAGE_SENDER_ID' | 'SAGE_SENDER_PASSWORD'>,
  login: SageLogin,
  options: { fetch?: typeof fetch } = {},
): Promise<'accepted' | 'untried'> => {
  if (!config.SAGE_SENDER_ID || !config.SAGE_SENDER_PASSWORD) {
    if (config.NODE_ENV === 'production')
      throw new AppError(
        'unavailable',
        'Connecting Sage Intacct is not set up on this server. Please contact support.',
        {
          message: 'SAGE_SENDER_ID and SAGE_SENDER_PASSWORD are not configured',
        },
      );
    return 'untried';
  }
  try {
    await checkSageLogin(
      {
        url: config.SAGE_INTACCT_API_URL,
        senderId: config.SAGE_SENDER_ID,
        senderPassword: config.SAGE_SENDER_PASSWORD,
        fetch: options.fetch,
      },
      login,
    );
    return 'accepted';
  } catch (error) {
    if (error instanceof SageError && error.authentication)
      throw new AppError('validation', `Sage Intacct refused the sign-in: ${error.message}`, {
        properties: { password: error.message },
      });
    throw new AppError(
      'unavailable',
      'Sage Intacct could not be reached. Please try again in a few minutes.',
      {
        message: error instanceof Error ? error.message : String(error),
      },
    );
  }
};
