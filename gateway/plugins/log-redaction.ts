import type { LoggerOptions } from 'pino';

/** What stands in a log line for a credential. */
const hidden = '[redacted]';

/**
 * Query parameters that carry live credentials: verification, recovery and invitation tokens
 * (/api/auth/verify, /api/auth/recover, the web app's invitation page), OAuth codes and states
 * (/api/auth/<provider>/callback, /api/connect/<provider>/callback), and anything named like a secret.
 */
const credentialParameter =
  /^(token|code|state|id_token|access_token|refresh_token|session_state|signature|sig|key|secret|password)$|(token|secret|password|hash|key)$/i;

/** Paths whose last segment is itself a credential (invitation links of earlier releases). */
const credentialInPath = /^(\/api\/auth\/invitation\/|\/invitation\/)(?!accept$)[^/?#]+/i;

/**
 * A request URL as it may be logged or recorded: credential values in the query and credential path
 * segments replaced. Keeps the parameter names, so a log still says which link was followed.
 */
export const redactUrl = (url: string): string => {
  const queryStart = url.indexOf('?');
  const rawPath = queryStart === -1 ? url : url.slice(0, queryStart);
  const path = rawPath.replace(credentialInPath, `$1${hidden}`);
  if (queryStart === -1) return path;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      let name = pair.slice(0, equals);
      try {
        name = decodeURIComponent(name);
      } catch {
        // A malformed name is logged as sent; its value is hidden below anyway when it looks secret.
      }
      return credentialParameter.test(name) ? `${pair.slice(0, equals)}=${hidden}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
};

type LoggedRequest = {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
};

/**
 * The logger options of every process: request lines carry redacted URLs (pino's redact cannot edit
 * part of a string), and headers or bodies that hold credentials are censored wherever they are
 * logged (cookies, bearer tokens, the anti-forgery token, passwords).
 */
export const logRedaction: Pick<LoggerOptions, 'serializers' | 'redact'> = {
  serializers: {
    req: (req: LoggedRequest) => ({
      method: req.method,
      url: req.url === undefined ? undefined : redactUrl(req.url),
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    }),
  },
  redact: {
    paths: [
      'req.headers.cookie',
      'req.headers.authorization',
      'req.headers["x-csrf-token"]',
      'res.headers["set-cookie"]',
      'headers.cookie',
      'headers.authorization',
      'headers["x-csrf-token"]',
      '*.password',
      '*.currentPassword',
      '*.newPassword',
      '*.token',
    ],
    censor: hidden,
  },
};
