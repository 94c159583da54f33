import type { LiveNotice, ServerMessage } from '../../contracts/live';
import type { LiveSink } from '../../projections/live-notices/live-notifier';

/** One open socket as the hub sees it. */
export type LiveClient = {
  readonly isPlatformAdmin: boolean;
  send: (message: ServerMessage) => void;
  /** A membership in the watched tenant changed: the client's own may be gone. */
  membershipChanged?: (userId: number) => void;
  /**
   * A user's person-level facts changed (address, verification, deletion), which platform-admin
   * rights derive from; told to every client, whatever it watches, with the notice's position.
   */
  userChanged?: (userId: number, position: number) => void;
};

type ChannelKey = number | 'platform';

/**
 * The channels of one gateway process: the sockets watching each tenant, and the platform admins'
 * sockets for notices about no tenant (plans). The process's notifier publishes here; each process
 * delivers only to its own sockets.
 */
export class LiveHub implements LiveSink {
  private readonly channels = new Map<ChannelKey, Set<LiveClient>>();
  /** Position of the last notice per channel, to tell a reconnecting client whether it missed one. */
  private readonly lastNotice = new Map<ChannelKey, number>();
  private startPosition: number | null = null;
  private processedPosition = -1;

  started(position: number): void {
    this.startPosition = position;
    this.processedPosition = Math.max(this.processedPosition, position);
  }

  processed(position: number): void {
    this.processedPosition = Math.max(this.processedPosition, position);
  }

  /** Every notice up to here has gone out to the sockets that watched its channel. */
  get position(): number {
    return this.processedPosition;
  }

  publish(notice: LiveNotice): void {
    const key: ChannelKey = notice.tenantId ?? 'platform';
    this.lastNotice.set(key, notice.position);
    const channel = [...(this.channels.get(key) ?? [])];
    for (const client of channel) client.send(notice);
    if (notice.type === 'invalidate' && notice.entity === 'membership' && typeof notice.id === 'number') {
      for (const client of channel) client.membershipChanged?.(notice.id);
    }
    // A person's notice goes to their tenants' channels only; an admin may be watching any other.
    if (notice.type === 'invalidate' && notice.entity === 'user' && typeof notice.id === 'number') {
      const userId = notice.id;
      const everyone = new Set([...this.channels.values()].flatMap((clients) => [...clients]));
      for (const client of everyone) client.userChanged?.(userId, notice.position);
    }
  }

  /** Starts delivering a tenant's notices (and, to platform admins, the platform's) to the client. */
  watch(client: LiveClient, tenantId: number | null): void {
    if (tenantId !== null) this.channelOf(tenantId).add(client);
    if (client.isPlatformAdmin) this.channelOf('platform').add(client);
  }

  unwatch(client: LiveClient, tenantId: number | null): void {
    for (const key of [tenantId ?? 'platform', 'platform'] as const) {
      const channel = this.channels.get(key);
      channel?.delete(client);
      if (channel?.size === 0) this.channels.delete(key);
    }
  }

  /**
   * Whether a client that last saw position `after` may have missed notices of the channels it
   * watches: yes when this process started following the store after that point (it cannot know).
   */
  mayHaveMissed(after: number, client: LiveClient, tenantId: number | null): boolean {
    if (this.startPosition === null || after < this.startPosition) return true;
    const keys: ChannelKey[] = [
      ...(tenantId === null ? [] : [tenantId]),
      ...(client.isPlatformAdmin ? (['platform'] as const) : []),
    ];
    return keys.some((key) => (this.lastNotice.get(key) ?? -1) > after);
  }

  /** Sockets watching a tenant (tests and health). */
  watchers(tenantId: number): number {
    return this.channels.get(tenantId)?.size ?? 0;
  }

  private channelOf(key: ChannelKey): Set<LiveClient> {
    let channel = this.channels.get(key);
    if (!channel) {
      channel = new Set();
      this.channels.set(key, channel);
    }
    return channel;
  }
}
