import { ServerMessage, liveCloseCodes, type ClientMessage } from '../../../contracts/live';

/** What the live client needs of a WebSocket; tests give it a fake. */
export type SocketLike = {
  send: (data: string) => void;
  close: (code?: number, reason?: string) => void;
  onopen: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
};

export type LiveSocketOptions = {
  /** The socket's address; `after` is the last position seen, on a reconnect. */
  urlOf: (after: number | null) => string;
  onMessage: (message: ServerMessage, context: { firstConnect: boolean }) => void;
  /** The server closed with 4401: the session ended (logout elsewhere, idle, revoked). */
  onSessionEnded: () => void;
  createSocket?: (url: string) => SocketLike;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
  random?: () => number;
};

const longestWaitMs = 30_000;

/** Exponential backoff with jitter: 1 s, 2 s, 4 s... up to 30 s, each between half and the full wait. */
export const reconnectDelayMs = (attempt: number, random: () => number = Math.random): number => {
  const wait = Math.min(longestWaitMs, 1000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(wait / 2 + (wait / 2) * random());
};

/** The live socket's address on this page's host (ws or wss as the page). */
export const liveUrlOf = (after: number | null): string => {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const query = after === null ? '' : `?after=${after}`;
  return `${scheme}://${window.location.host}/api/live${query}`;
};

/**
 * One live websocket (docs/adr/0015-live-notices.md): keeps the last position it saw, reconnects
 * with backoff passing it as `?after=`, and follows the tenant the session works in.
 */
export class LiveSocket {
  private socket: SocketLike | null = null;
  private timer: unknown = null;
  private attempts = 0;
  private stopped = true;
  private connectedOnce = false;
  private watching: number | null = null;
  /** The position of the last message received; null until the first. */
  position: number | null = null;

  constructor(private readonly options: LiveSocketOptions) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.open();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) (this.options.clearTimer ?? clearTimeout)(this.timer as never);
    this.timer = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000, 'signed out');
  }

  /** Follows another tenant after a switch; the server answers with hello and refetch. */
  watch(tenantId: number | null): void {
    if (tenantId === this.watching) return;
    this.watching = tenantId;
    if (tenantId !== null) this.send({ type: 'subscribe', tenantId });
  }

  private send(message: ClientMessage): void {
    try {
      this.socket?.send(JSON.stringify(message));
    } catch {
      // Not open yet: the hello that follows the connection says which tenant it watches.
    }
  }

  private open(): void {
    const create =
      this.options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
    const socket = create(this.options.urlOf(this.position));
    this.socket = socket;
    const firstConnect = !this.connectedOnce;
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      const message = this.parse(event.data);
      if (!message) return;
      if ('position' in message) this.position = Math.max(this.position ?? -1, message.position);
      if (message.type === 'hello') {
        this.attempts = 0;
        this.connectedOnce = true;
        // The server follows the session's tenant; after a switch the socket may still watch the old one.
        if (this.watching !== null && message.tenantId !== this.watching)
          this.send({ type: 'subscribe', tenantId: this.watching });
      }
      this.options.onMessage(message, { firstConnect });
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      if (event.code === liveCloseCodes.sessionEnded) {
        this.stopped = true;
        this.options.onSessionEnded();
        return;
      }
      this.attempts += 1;
      const wait = reconnectDelayMs(this.attempts, this.options.random);
      this.timer = (this.options.setTimer ?? setTimeout)(() => {
        this.timer = null;
        if (!this.stopped) this.open();
      }, wait);
    };
  }

  private parse(data: unknown): ServerMessage | null {
    if (typeof data !== 'string') return null;
    try {
      const parsed = ServerMessage.safeParse(JSON.parse(data));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
}
