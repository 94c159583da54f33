import {
  AcceptInvitationResponse,
  RecoverPasswordResponse,
  SessionResponse,
  loginMessages,
  type AcceptInvitationRequest,
  type LoginRequest,
  type RegisterRequest,
  type ResetPasswordRequest,
} from '../../../contracts/auth';
import type { ApiClient } from './api-client';
import { ApiError, NetworkError, ValidationError } from './api-error';

/** The Auth calls of portal.md section 7, with the catalogue's texts for their failures (section 8). */

const loginFailed = 'There was an error logging in. Please try again.';
const recoveryFailed = 'There was an error processing this request.';

/** The current session, or null for a guest (401 here means "not signed in", not "log out"). */
export const fetchSession = async (api: ApiClient): Promise<SessionResponse | null> => {
  try {
    return await api.get('/api/auth/self', { schema: SessionResponse, authFailure: 'throw' });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return null;
    throw error;
  }
};

export const login = async (api: ApiClient, body: LoginRequest): Promise<SessionResponse> => {
  try {
    return await api.request('/api/auth/login', {
      method: 'POST',
      body,
      schema: SessionResponse,
      authFailure: 'throw',
    });
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    if (!(error instanceof ApiError) || error instanceof NetworkError)
      throw new ApiError(loginFailed, { status: 0 });
    if (error.status === 401) throw new ApiError(error.serverText ?? loginMessages.invalidCredentials, error);
    if (error.status === 429) throw new ApiError(loginMessages.tooManyAttempts, error);
    if (error.message === 'Invalid response data.') throw error;
    throw new ApiError(`Error logging in. (${error.status})`, error);
  }
};

export const register = (api: ApiClient, body: RegisterRequest): Promise<SessionResponse> =>
  api.request('/api/auth/register', { method: 'POST', body, schema: SessionResponse, authFailure: 'throw' });

export const recoverPassword = async (api: ApiClient, email: string): Promise<string> => {
  try {
    const answer = await api.request('/api/auth/recoverPassword', {
      method: 'POST',
      body: { email },
      schema: RecoverPasswordResponse,
      authFailure: 'throw',
    });
    return answer.message;
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    if (error instanceof ApiError && error.status === 429)
      throw new ApiError(loginMessages.tooManyRecoveries, error);
    if (error instanceof ApiError && error.serverText) throw error;
    throw new ApiError(recoveryFailed, { status: error instanceof ApiError ? error.status : 0 });
  }
};

export const resetPassword = (api: ApiClient, body: ResetPasswordRequest): Promise<string> =>
  api
    .request('/api/auth/resetPassword', { method: 'POST', body, schema: RecoverPasswordResponse })
    .then((answer) => answer.message);

export const switchTenant = (api: ApiClient, tenantId: number): Promise<SessionResponse> =>
  api.request('/api/auth/switchTenant', { method: 'POST', body: { tenantId }, schema: SessionResponse });

/**
 * The invitation page's Accept: the emailed link's id and token. 409 means the invitation is no longer
 * valid; 403 that the browser is signed in as another account (both handled by the page).
 */
export const acceptInvitation = (
  api: ApiClient,
  body: AcceptInvitationRequest,
): Promise<AcceptInvitationResponse> =>
  api.request('/api/auth/invitation/accept', {
    method: 'POST',
    body,
    schema: AcceptInvitationResponse,
    authFailure: 'throw',
  });

/**
 * Ends the server session; a failure here must not keep the user signed in on this screen. A POST
 * with the anti-forgery header, so no other site can sign the user out.
 */
export const logout = async (api: ApiClient, reason?: string): Promise<void> => {
  try {
    await api.request('/api/auth/logout', {
      method: 'POST',
      body: reason === undefined ? {} : { reason },
      authFailure: 'throw',
    });
  } catch {
    // The session cookie is cleared by the server when reachable; the app forgets the user either way.
  }
};
