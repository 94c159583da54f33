import type { LightMyRequestResponse } from 'fastify';
import type { Browser } from '../gateway/gateway-world';

/**
 * Drives a browser redirect flow: the gateway's redirect to the provider (inject), the provider's
 * authorize endpoint (a real HTTP request to the local server), and the redirect back to the
 * gateway's callback (inject again, with the browser's cookies). The hooks let a test play an
 * attacker between the steps.
 */
export const followProviderFlow = async (
  browser: Browser,
  startPath: string,
  tamper: {
    /** Changes the authorization request before it reaches the provider. */
    authorizeUrl?: (url: URL) => void;
    /** Changes the provider's answer before it reaches the gateway. */
    callbackUrl?: (url: URL) => void;
  } = {},
): Promise<{ start: LightMyRequestResponse; callback: LightMyRequestResponse | null; location: string }> => {
  const start = await browser.get(startPath);
  if (start.statusCode !== 302) throw new Error(`start ${startPath}: ${start.statusCode} ${start.body}`);
  const authorize = new URL(String(start.headers.location), 'http://gateway.invalid');
  // The gateway refused before reaching the provider (its own redirect to /login or /platforms).
  if (authorize.host === 'gateway.invalid')
    return { start, callback: null, location: String(start.headers.location) };
  tamper.authorizeUrl?.(authorize);
  const atProvider = await fetch(authorize, { redirect: 'manual' });
  const back = atProvider.headers.get('location');
  if (atProvider.status !== 302 || !back)
    throw new Error(`provider answered ${atProvider.status}: ${await atProvider.text()}`);
  const callbackUrl = new URL(back);
  tamper.callbackUrl?.(callbackUrl);
  const callback = await browser.get(`${callbackUrl.pathname}${callbackUrl.search}`);
  return { start, callback, location: String(callback.headers.location) };
};
