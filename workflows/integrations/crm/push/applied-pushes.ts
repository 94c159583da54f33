import type { CrmObjectType, IntegrationEvent } from '../../../../contracts/events/integration';
import { splitPushKey } from './push-keys';

type PushesApplied = Extract<IntegrationEvent, { type: 'IntegrationPushesApplied' }>;
export type RecordedPush = PushesApplied['data']['pushes'][number];

/**
 * What an integration's own stream says Ledgerwise has written to the CRM, folded from its events:
 * the source the push, purge and unlink activities decide from. The stream, not a read model, so a
 * push that follows another at once never misses what the first one recorded (no projection lag).
 */
export type AppliedPushes = {
  /** The current links (IntegrationCompaniesMatched), per seller: customer id -> CRM company id. */
  links: Map<number, Map<string, string>>;
  /** Every key recorded as applied and not purged since. */
  keys: Set<string>;
  /** Per key group, the version of the last key recorded (null: a key without a version). */
  latest: Map<string, { key: string; version: string | null }>;
  /** Objects Ledgerwise created and has not purged, by `${objectType}:${crmId}`. */
  created: Map<string, RecordedPush>;
  /** The accounting ids Ledgerwise wrote onto companies (linkCompany) that no unlink has taken back. */
  writtenLinks: Map<string, RecordedPush & { sellerId: number; customerId: string }>;
};

export const createdObjectId = (object: { objectType: CrmObjectType; crmId: string }) =>
  `${object.objectType}:${object.crmId}`;

const linkId = (sellerId: number, customerId: string) => `${sellerId}:${customerId}`;

export const emptyAppliedPushes = (): AppliedPushes => ({
  links: new Map(),
  keys: new Set(),
  latest: new Map(),
  created: new Map(),
  writtenLinks: new Map(),
});

const forget = (applied: AppliedPushes, key: string) => {
  applied.keys.delete(key);
  const { group } = splitPushKey(key);
  if (applied.latest.get(group)?.key === key) applied.latest.delete(group);
};

/** Folds one event of the integration's stream into `applied` (mutated: streams can be long). */
export const applyIntegrationEvent = (applied: AppliedPushes, event: IntegrationEvent): AppliedPushes => {
  switch (event.type) {
    case 'IntegrationCompaniesMatched': {
      const { sellerId, linked, unlinked } = event.data;
      const links = applied.links.get(sellerId) ?? new Map<string, string>();
      for (const customerId of unlinked) {
        links.delete(customerId);
        // The accounting id Ledgerwise wrote is gone with the link: a new link writes it again.
        const written = applied.writtenLinks.get(linkId(sellerId, customerId));
        if (written) forget(applied, written.key);
        applied.writtenLinks.delete(linkId(sellerId, customerId));
      }
      for (const link of linked) links.set(link.customerId, link.crmId);
      applied.links.set(sellerId, links);
      return applied;
    }
    case 'IntegrationPushesApplied':
      for (const push of event.data.pushes) {
        applied.keys.add(push.key);
        const { group, version } = splitPushKey(push.key);
        applied.latest.set(group, { key: push.key, version });
        if (push.created) applied.created.set(createdObjectId(push), push);
        if (push.kind === 'linkCompany' && push.sellerId !== null && push.customerId !== null)
          applied.writtenLinks.set(linkId(push.sellerId, push.customerId), {
            ...push,
            sellerId: push.sellerId,
            customerId: push.customerId,
          });
      }
      return applied;
    case 'IntegrationObjectsPurged':
      // A purged object is gone from the CRM: its key is free again, so a later sync may say it anew.
      for (const object of event.data.objects) {
        const id = createdObjectId(object);
        const push = applied.created.get(id);
        if (push) forget(applied, push.key);
        applied.created.delete(id);
      }
      return applied;
    case 'IntegrationDeleted':
      return emptyAppliedPushes();
    case 'IntegrationConnected':
    case 'IntegrationCredentialsRenewed':
    case 'IntegrationCredentialsInvalidated':
    case 'IntegrationActivated':
    case 'IntegrationDeactivated':
    case 'IntegrationLocked':
    case 'IntegrationUnlocked':
    case 'IntegrationSettingsUpdated':
    case 'IntegrationSyncRequested':
    case 'IntegrationSyncCompleted':
    case 'IntegrationSyncFailed':
    case 'IntegrationPurgeRequested':
    case 'IntegrationUnlinkRequested':
    case 'IntegrationDisconnected':
    case 'IntegrationJobFinished':
      return applied;
  }
};

export const appliedPushesOf = (events: Iterable<IntegrationEvent>): AppliedPushes => {
  const applied = emptyAppliedPushes();
  for (const event of events) applyIntegrationEvent(applied, event);
  return applied;
};
