/**
 * The keys of what Ledgerwise pushes to a CRM (docs/adr/0046-crm-pushes.md). A key names one thing
 * the product says about one customer, so the same fact computed again (a retried activity, the next
 * sync) gets the same key, and the connector keeps one CRM object per key.
 *
 * `lw:<integration>:<kind>:<seller>:<customer>[:<part>...]` is the key's group: the subject. Kinds
 * whose content changes over time (a segment, a property value) add `#<version>`: the version that
 * was pushed. A new version of the same group is a new push; the same version again is not.
 */
export type PushKeyKind = 'segment' | 'overdue' | 'task' | 'salesRep' | 'revops';

const part = (value: string | number) => encodeURIComponent(String(value));

export const pushKeyGroup = (
  integrationId: number,
  kind: PushKeyKind,
  subject: { sellerId: number; customerId: string; parts?: readonly (string | number)[] },
): string =>
  ['lw', integrationId, kind, subject.sellerId, subject.customerId, ...(subject.parts ?? [])]
    .map(part)
    .join(':');

export const versionedKey = (group: string, version: string): string => `${group}#${part(version)}`;

/** The group and the version of a recorded key (a key without a version is its own group). */
export const splitPushKey = (key: string): { group: string; version: string | null } => {
  const at = key.indexOf('#');
  return at < 0
    ? { group: key, version: null }
    : { group: key.slice(0, at), version: decodeURIComponent(key.slice(at + 1)) };
};

/**
 * A short stable digest of a property value set (FNV-1a, 64 bits as two 32-bit halves): equal values
 * give equal digests whatever order their properties were built in.
 */
export const valueDigest = (value: Record<string, string | number | null>): string => {
  const text = JSON.stringify(
    Object.keys(value)
      .sort()
      .map((name) => [name, value[name] ?? null]),
  );
  let low = 0x811c9dc5;
  let high = 0x01000193;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    low = Math.imul(low ^ code, 0x01000193) >>> 0;
    high = Math.imul(high ^ code ^ (low >>> 16), 0x01000193) >>> 0;
  }
  return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
};
