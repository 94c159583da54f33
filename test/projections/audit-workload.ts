import type { EventMetadata } from '../../contracts/events/envelope';
import { eventIdFor } from '../../commands/event-id';
import { eventRegistry } from '../../commands/event-registry';
import type { EventStore, EventToAppend } from '../../commands/event-store/event-store';
import type { PersonalDataKeyStore } from '../../commands/personal-data-key-store';
import { createPersonalDataProtector } from '../../commands/personal-data';
import { sellerStream, tenantStream, userStream } from '../../contracts/stream-ids';

/**
 * A deterministic mix of tenant, user and seller events from several tenants and users, with request
 * metadata, shaped like what the command side stores. Used by the projection tests and the replay
 * benchmark.
 */
export type WorkloadOptions = { events: number; tenants?: number; label?: string; firstIndex?: number };

export type WorkloadAppend = { streamId: string; event: EventToAppend };

const sellerTypes = [
  'SellerConnected',
  'SellerActivated',
  'SellerCompanyDetailsRecorded',
  'SellerDeactivated',
  'SellerDeleted',
];
const base = Date.parse('2026-03-01T00:00:00.000Z');

export function* auditWorkload(options: WorkloadOptions): Generator<WorkloadAppend> {
  const tenants = options.tenants ?? 5;
  const label = options.label ?? 'wl';
  const seen = new Set<string>();
  const first = options.firstIndex ?? 0;
  for (let n = first; n < first + options.events; n += 1) {
    const tenantId = (n % tenants) + 1;
    const userId = tenantId * 100 + (Math.floor(n / tenants) % 4);
    const kind = Math.floor(n / tenants) % 6;
    let streamId: string;
    let type: string;
    let data: Record<string, unknown>;
    if (kind === 0) {
      streamId = userStream(userId);
      type = !seen.has(streamId) ? 'UserRegistered' : n % 3 === 0 ? 'UserEmailChanged' : 'UserLoggedIn';
      data = { UserId: userId, Email: `user${userId}.${n}@example.com` };
    } else if (kind === 1) {
      streamId = tenantStream(tenantId);
      type = seen.has(streamId) ? 'TenantRenamed' : 'TenantCreated';
      data = { TenantId: tenantId, Name: `Tenant ${tenantId} (${n})` };
    } else {
      const sellerId = tenantId * 1000 + (n % 7);
      streamId = sellerStream(sellerId);
      type = sellerTypes[Math.floor(n / 7) % sellerTypes.length] ?? 'SellerActivated';
      data = { SellerId: sellerId, TenantId: tenantId };
    }
    seen.add(streamId);
    const system = n % 5 === 4;
    const metadata: EventMetadata = {
      tenantId,
      actor: system ? 'system:sync' : `user:${userId}`,
      ip: system ? null : `10.0.${tenantId % 250}.${n % 250}`,
      method: system ? null : type.endsWith('Deleted') ? 'DELETE' : 'POST',
      url: system ? null : `/api/${streamId.replace('-', 's/')}`,
      body: system ? null : { name: `Name ${n}`, token: 'left-over-secret', terms: n % 60 },
      requestId: system ? null : `req-${label}-${n}`,
      correlationId: `corr-${label}-${n}`,
      causationId: null,
      time: new Date(base + n * 1000).toISOString(),
    };
    yield {
      streamId,
      event: { id: eventIdFor(`${label}-${n}`, 0), type, schemaVersion: 1, data, metadata },
    };
  }
}

/** Appends the workload as the command side would: personal data encrypted under its subject's key. */
export const appendWorkload = async (
  store: EventStore,
  keys: PersonalDataKeyStore,
  options: WorkloadOptions,
): Promise<number> => {
  const protector = createPersonalDataProtector({ keys, registry: eventRegistry });
  let position = -1;
  for (const { streamId, event } of auditWorkload(options)) {
    const stored = await protector.protect({ streamId, ...event });
    position = (await store.append(streamId, [{ ...event, ...stored }], { kind: 'any' })).position;
  }
  return position;
};

/** One event, encrypted like the rest; returns its position. */
export const appendOne = async (
  store: EventStore,
  keys: PersonalDataKeyStore,
  append: {
    streamId: string;
    type: string;
    data: Record<string, unknown>;
    metadata: EventMetadata;
    id: string;
  },
): Promise<number> => {
  const protector = createPersonalDataProtector({ keys, registry: eventRegistry });
  const { streamId, type, data, metadata, id } = append;
  const stored = await protector.protect({ streamId, type, data, metadata });
  return (await store.append(streamId, [{ id, type, schemaVersion: 1, ...stored }], { kind: 'any' }))
    .position;
};
