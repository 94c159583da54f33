import type { Db } from 'mongodb';
import type { WebSocket, RawData } from 'ws';
import { ClientMessage, liveCloseCodes, type ServerMessage } from '../../contracts/live';
import { callerFacts, type CallerFacts } from '../../projections/users/caller-facts';
import type { Session, SessionStore } from '../auth/session-store';
import type { LiveClient, LiveHub } from './live-hub';

/** A websocket frame as text (ws hands over one buffer, fragments, or an ArrayBuffer). */
const textOf = (data: RawData): string => {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
};

/** The websocket close code of an unexpected server condition (RFC 6455). */
const internalErrorCode = 1011;

export type LiveConnectionDeps = {
  hub: LiveHub;
  sessions: SessionStore;
  db: Db;
  now: () => Date;
  /** A socket whose unsent data passes this is closed: a slow reader must not grow the server's memory. */
  maxBufferedBytes: number;
  /** Platform-admin rights from the user's current facts (gateway/plugins/access.ts isPlatformAdminBy). */
  isPlatformAdmin: (facts: CallerFacts) => boolean;
};

/**
 * One authenticated socket: which tenant it watches, what its user may watch, and whether it is
 * alive. The session is checked again at every heartbeat (without counting as activity), so a
 * logout, an idle expiry or a lost membership ends the delivery. Platform-admin rights are derived
 * again at every heartbeat and whenever the user's own facts change, so a demoted admin's socket
 * stops receiving other tenants' notices at once.
 */
export class LiveConnection implements LiveClient {
  private platformAdmin: boolean;
  /** The last user notice acted on: one event's notice reaches every tenant of the user. */
  private userChangeSeen = -1;
  private tenantId: number | null = null;
  private alive = true;
  private closed = false;
  /** Client messages are handled one at a time, in order. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: WebSocket,
    /** isPlatformAdmin as the access hook derived it for the upgrade request (not kept in the session). */
    private readonly session: { token: string; current: Session; isPlatformAdmin: boolean },
    private readonly deps: LiveConnectionDeps,
  ) {
    this.platformAdmin = session.isPlatformAdmin;
    socket.on('pong', () => {
      this.alive = true;
    });
    socket.on('message', (data) => this.enqueue(() => this.onMessage(data)));
    socket.on('close', () => {
      this.closed = true;
      this.deps.hub.unwatch(this, this.tenantId);
    });
  }

  /** Watches the session's current tenant; `after` (a reconnect) asks whether anything was missed. */
  async open(after: number | undefined): Promise<void> {
    const tenantId = await this.allowedTenant(this.session.current.tenantId);
    if (this.closed) return;
    this.watch(tenantId);
    if (after !== undefined && this.deps.hub.mayHaveMissed(after, this, tenantId))
      this.send({ type: 'refetch' });
  }

  send(message: ServerMessage): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    if (this.socket.bufferedAmount > this.deps.maxBufferedBytes) {
      this.end(liveCloseCodes.tooSlow, 'too slow');
      return;
    }
    this.socket.send(JSON.stringify(message));
  }

  get isPlatformAdmin(): boolean {
    return this.platformAdmin;
  }

  /**
   * The user's address, its verification or the account changed: nothing more is delivered until
   * the rights are derived again, then the socket watches what it may, with a refetch if it missed
   * a notice meanwhile.
   */
  userChanged(userId: number, position: number): void {
    if (this.closed || userId !== this.session.current.userId || position <= this.userChangeSeen) return;
    this.userChangeSeen = position;
    this.deps.hub.unwatch(this, this.tenantId);
    this.enqueue(async () => {
      await this.recheck(true);
      if (this.closed) return;
      this.deps.hub.watch(this, this.tenantId);
      if (this.deps.hub.mayHaveMissed(position, this, this.tenantId)) this.send({ type: 'refetch' });
    });
  }

  /** A removed or disabled member stops receiving the tenant's notices at once, not at the next heartbeat. */
  membershipChanged(userId: number): void {
    if (userId !== this.session.current.userId || this.isPlatformAdmin) return;
    this.enqueue(() => this.recheck());
  }

  /**
   * Ends a socket that did not answer the last ping; otherwise pings again, sends a heartbeat and
   * checks that the session still stands and may still watch its tenant.
   */
  heartbeat(): void {
    if (this.closed) return;
    if (!this.alive) {
      this.socket.terminate();
      return;
    }
    this.alive = false;
    this.socket.ping();
    this.send({ type: 'heartbeat', position: this.deps.hub.position });
    this.enqueue(() => this.recheck());
  }

  /** Runs after the tasks before it; a failure (the database is away) ends the socket, and the client reconnects. */
  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue.then(task).catch(() => this.end(internalErrorCode, 'internal error'));
  }

  private async recheck(rederiveRights = false): Promise<void> {
    const current = await this.deps.sessions.peek(this.session.token, this.deps.now());
    if (!current) {
      this.end(liveCloseCodes.sessionEnded, 'session ended');
      return;
    }
    this.session.current = current;
    const wasPlatformAdmin = this.platformAdmin;
    // At a heartbeat only an admin's rights are read again (losing them is what must not wait); a
    // user notice re-derives anyone's, a promotion included.
    if (rederiveRights || wasPlatformAdmin) {
      const facts = await callerFacts(this.deps.db, { userId: current.userId, tenantId: current.tenantId });
      this.platformAdmin = this.deps.isPlatformAdmin(facts);
    }
    if (this.closed) return;
    if (this.platformAdmin !== wasPlatformAdmin) {
      // Rights changed: the platform channel and any tenant watched only as an admin are re-decided.
      this.deps.hub.unwatch(this, this.tenantId);
      const allowed = await this.allowedTenant(this.tenantId);
      if (!this.closed) this.watch(allowed);
      return;
    }
    if (this.tenantId === null || this.platformAdmin) return;
    const allowed = await this.allowedTenant(this.tenantId);
    if (allowed === null && !this.closed) this.watch(null);
  }

  private async onMessage(data: RawData): Promise<void> {
    let parsed: ReturnType<typeof ClientMessage.safeParse>;
    try {
      parsed = ClientMessage.safeParse(JSON.parse(textOf(data)));
    } catch {
      this.send({ type: 'error', code: 'validation', message: 'Messages must be JSON.' });
      return;
    }
    if (!parsed.success) {
      this.send({ type: 'error', code: 'validation', message: 'Unknown message.' });
      return;
    }
    const message = parsed.data;
    if (message.type === 'ping') {
      this.send({ type: 'heartbeat', position: this.deps.hub.position });
      return;
    }
    await this.subscribe(message.tenantId);
  }

  private async subscribe(tenantId: number): Promise<void> {
    const current = await this.deps.sessions.peek(this.session.token, this.deps.now());
    if (!current) {
      this.end(liveCloseCodes.sessionEnded, 'session ended');
      return;
    }
    this.session.current = current;
    const allowed = await this.allowedTenant(tenantId);
    if (allowed === null) {
      this.send({ type: 'error', code: 'forbidden', message: 'Access Denied' });
      return;
    }
    if (this.closed) return;
    const changed = allowed !== this.tenantId;
    this.watch(allowed);
    // What the client shows belongs to another tenant, or predates this subscription.
    if (changed) this.send({ type: 'refetch' });
  }

  /**
   * The tenant this socket may watch: any for a platform admin; otherwise only the session's current
   * tenant, and only while the user is an active member of it.
   */
  private async allowedTenant(tenantId: number | null): Promise<number | null> {
    if (tenantId === null) return null;
    const { current } = this.session;
    if (this.isPlatformAdmin) return tenantId;
    if (current.tenantId !== tenantId) return null;
    const facts = await callerFacts(this.deps.db, { userId: current.userId, tenantId });
    return facts.exists && facts.membership?.status === 'ACTIVE' ? tenantId : null;
  }

  /** Moves the socket to a tenant's channel (or none) and says so with a hello. */
  private watch(tenantId: number | null): void {
    this.deps.hub.unwatch(this, this.tenantId);
    this.tenantId = tenantId;
    this.deps.hub.watch(this, tenantId);
    this.send({ type: 'hello', tenantId, position: this.deps.hub.position });
  }

  private end(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.deps.hub.unwatch(this, this.tenantId);
    this.socket.close(code, reason);
  }
}
