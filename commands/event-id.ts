import { createHash } from 'node:crypto';

/**
 * Deterministic event ids (architecture.md, write side): the id of the n-th event a command produces
 * is a UUID v5 of the command id and n, so a retried command appends events the store recognises as
 * duplicates instead of writing them twice.
 */

/** Ledgerwise's own namespace for event ids (UUID v5 of the URL namespace and our events URL). */
export const EVENT_ID_NAMESPACE = '83e3cb7e-64e8-5229-bd1a-30048ca1d189';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const bytesOf = (uuid: string): Buffer => {
  if (!uuidPattern.test(uuid)) throw new Error(`Not a UUID: ${uuid}`);
  return Buffer.from(uuid.replace(/-/g, ''), 'hex');
};

/** RFC 9562 UUID version 5 (SHA-1 of the namespace and the name). */
export const uuidV5 = (name: string, namespace: string): string => {
  const hash = createHash('sha1').update(bytesOf(namespace)).update(name, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** The id of the event at `index` (0-based) among the events produced by the command `commandId`. */
export const eventIdFor = (commandId: string, index: number): string => {
  if (commandId.length === 0) throw new Error('A command id is required to derive event ids');
  if (!Number.isInteger(index) || index < 0)
    throw new Error(`Event index must be a non-negative integer, got ${index}`);
  // The separator keeps ("a1", 2) and ("a", 12) apart.
  return uuidV5(`${commandId}#${index}`, EVENT_ID_NAMESPACE);
};
