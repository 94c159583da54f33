/**
 * The live suite's websocket clients, forked as their own process so the gateway process's memory and
 * CPU are the gateway's alone. The parent sends `connect` (url, origin and one session cookie per
 * client) and later `report`; each client records the wall-clock arrival of every notice it receives.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

export type ClientSpec = { tenantId: number; cookie: string };
export type Arrival = {
  client: number;
  tenantId: number;
  noticeTenantId: number | null;
  position: number;
  at: number;
};
export type ParentMessage =
  | { type: 'connect'; url: string; origin: string; clients: ClientSpec[] }
  | { type: 'report' }
  | { type: 'close' };
export type ChildMessage =
  | { type: 'connected'; count: number }
  | { type: 'report'; arrivals: Arrival[]; closed: number }
  | { type: 'failed'; message: string };

/** Milliseconds since the epoch with sub-millisecond precision, comparable across processes. */
export const wallClock = () => performance.timeOrigin + performance.now();

const sockets: WebSocket[] = [];
let clientsSoFar = 0;
const arrivals: Arrival[] = [];
let closed = 0;

const reply = (message: ChildMessage) => process.send?.(message);

const connectOne = (url: string, origin: string, spec: ClientSpec, client: number) =>
  new Promise<void>((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { cookie: spec.cookie, origin } });
    socket.on('message', (data: Buffer) => {
      const at = wallClock();
      const message = JSON.parse(data.toString('utf8')) as {
        type: string;
        tenantId?: number | null;
        position?: number;
      };
      if (message.type !== 'invalidate') return;
      arrivals.push({
        client,
        tenantId: spec.tenantId,
        noticeTenantId: message.tenantId ?? null,
        position: message.position ?? -1,
        at,
      });
    });
    socket.on('close', () => (closed += 1));
    socket.once('open', () => resolve());
    socket.once('error', reject);
    sockets.push(socket);
  });

process.on('message', (message: ParentMessage) => {
  if (message.type === 'connect') {
    // A few at a time: a thousand upgrades at once would measure the accept queue, not the fan-out.
    void (async () => {
      const { url, origin, clients } = message;
      const first = clientsSoFar;
      clientsSoFar += clients.length;
      for (let from = 0; from < clients.length; from += 50) {
        await Promise.all(
          clients.slice(from, from + 50).map((spec, i) => connectOne(url, origin, spec, first + from + i)),
        );
      }
      reply({ type: 'connected', count: clients.length });
    })().catch((error: unknown) => reply({ type: 'failed', message: String(error) }));
  } else if (message.type === 'report') {
    reply({ type: 'report', arrivals: arrivals.splice(0), closed });
  } else {
    for (const socket of sockets) socket.close();
    setTimeout(() => process.exit(0), 200);
  }
});
