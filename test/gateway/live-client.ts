import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { ServerMessage } from '../../contracts/live';
import type { Browser, World } from './gateway-world';

/** A websocket client of /api/live with the browser's cookies, collecting what the server sends. */
export type LiveClient = {
  socket: WebSocket;
  messages: ServerMessage[];
  /** Resolves with the first message (not yet taken) that matches; fails after `timeoutMs`. */
  next: <T extends ServerMessage['type']>(
    type: T,
    options?: { where?: (message: Extract<ServerMessage, { type: T }>) => boolean; timeoutMs?: number },
  ) => Promise<Extract<ServerMessage, { type: T }>>;
  send: (message: unknown) => void;
  closed: Promise<{ code: number; reason: string }>;
  close: () => void;
};

export const liveUrl = (world: World, query = ''): string => {
  const { port } = world.app.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}/api/live${query}`;
};

const cookieHeader = (browser: Browser) =>
  [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');

/** Connects like the web app: the session cookie and the app's own origin. */
export const connectLive = async (
  world: World,
  browser: Browser,
  options: { after?: number; origin?: string; autoPong?: boolean } = {},
): Promise<LiveClient> => {
  const query = options.after === undefined ? '' : `?after=${options.after}`;
  const socket = new WebSocket(liveUrl(world, query), {
    headers: { cookie: cookieHeader(browser), origin: options.origin ?? world.config.PUBLIC_URL },
    autoPong: options.autoPong ?? true,
  });
  const messages: ServerMessage[] = [];
  let taken = 0;
  const waiters = new Set<() => void>();
  socket.on('message', (data: Buffer) => {
    messages.push(ServerMessage.parse(JSON.parse(data.toString('utf8'))));
    for (const wake of waiters) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });

  const next: LiveClient['next'] = (type, { where, timeoutMs = 5000 } = {}) =>
    new Promise((resolve, reject) => {
      const look = () => {
        for (let i = taken; i < messages.length; i += 1) {
          const message = messages[i] as ServerMessage;
          if (message.type !== type) continue;
          const typed = message as Extract<ServerMessage, { type: typeof type }>;
          if (where && !where(typed)) continue;
          taken = i + 1;
          cleanup();
          resolve(typed);
          return;
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no ${type} message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(look);
      };
      waiters.add(look);
      look();
    });

  return {
    socket,
    messages,
    next,
    send: (message) => socket.send(JSON.stringify(message)),
    closed,
    close: () => socket.close(),
  };
};

/** The HTTP status of a refused upgrade (the socket never opens). */
export const refusedUpgrade = (
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.on('open', () => {
      socket.close();
      reject(new Error('the upgrade was accepted'));
    });
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.on('error', () => undefined);
  });
