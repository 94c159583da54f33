import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EventMetadata, RecordedEvent } from '../contracts/events/envelope';
import { AppError } from '../contracts/errors';
import { categoryOf } from './event-store/event-store';
import type { EventRegistry } from './event-registry';
import type { PersonalDataKeyStore } from './personal-data-key-store';

/**
 * Crypto-shredding (docs/adr/0005-personal-data.md): the personal-data fields of an event, and the
 * request ip and body in its metadata, are stored encrypted with a key per subject (a tenant or a
 * user). Erasing the subject's key leaves the events in place but those values unreadable; they read
 * back as ERASED.
 */

export const ERASED = '[erased]';

export const tenantSubject = (tenantId: number): string => `tenant:${tenantId}`;
export const userSubject = (userId: number): string => `user:${userId}`;

/** An encrypted value is a string, so it fits wherever the metadata schema expects one (ip). */
const PREFIX = 'pd:v1:';
const IV_BYTES = 12;

const entityIdOf = (streamId: string): number | null => {
  const id = Number(streamId.slice(streamId.indexOf('-') + 1));
  return Number.isInteger(id) && id > 0 ? id : null;
};

const tenantIdIn = (data: unknown): number | null => {
  if (data === null || typeof data !== 'object') return null;
  const record = data as Record<string, unknown>;
  const id = record.TenantId ?? record.tenantId;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null;
};

/**
 * Whose data an event holds: a user's own stream is the user's; everything else belongs to the
 * tenant of the stream, the payload or the request, so that purging the tenant erases it. Null when
 * no tenant is known (platform-level streams such as plans).
 */
export const subjectOf = (event: {
  streamId: string;
  data: unknown;
  metadata: EventMetadata;
}): string | null => {
  const category = categoryOf(event.streamId);
  const entityId = entityIdOf(event.streamId);
  if (category === 'user' && entityId !== null) return userSubject(entityId);
  if (category === 'tenant' && entityId !== null) return tenantSubject(entityId);
  const tenantId = tenantIdIn(event.data) ?? event.metadata.tenantId;
  return tenantId === null ? null : tenantSubject(tenantId);
};

type Cipher = { subject: string; key: Buffer };

const encrypt = (cipher: Cipher, value: unknown, field: string): string => {
  const iv = randomBytes(IV_BYTES);
  const aes = createCipheriv('aes-256-gcm', cipher.key, iv);
  // The subject and field are authenticated, so a value cannot be moved to another field or subject.
  aes.setAAD(Buffer.from(`${cipher.subject}|${field}`));
  const sealed = Buffer.concat([aes.update(JSON.stringify(value), 'utf8'), aes.final()]);
  return `${PREFIX}${cipher.subject}:${[iv, aes.getAuthTag(), sealed].map((b) => b.toString('base64url')).join(':')}`;
};

type Sealed = { subject: string; iv: Buffer; tag: Buffer; sealed: Buffer };

const parseSealed = (value: unknown): Sealed | null => {
  if (typeof value !== 'string' || !value.startsWith(PREFIX)) return null;
  const parts = value.slice(PREFIX.length).split(':');
  const [iv, tag, sealed] = parts.slice(-3).map((part) => Buffer.from(part, 'base64url'));
  const subject = parts.slice(0, -3).join(':');
  if (!iv || !tag || !sealed || subject === '') return null;
  return { subject, iv, tag, sealed };
};

const decrypt = (value: Sealed, key: Buffer | null, field: string): unknown => {
  if (!key) return ERASED;
  const aes = createDecipheriv('aes-256-gcm', key, value.iv);
  aes.setAAD(Buffer.from(`${value.subject}|${field}`));
  aes.setAuthTag(value.tag);
  return JSON.parse(Buffer.concat([aes.update(value.sealed), aes.final()]).toString('utf8')) as unknown;
};

export type EventToProtect = { streamId: string; type: string; data: unknown; metadata: EventMetadata };

export type PersonalDataProtector = {
  /** The data and metadata to store: personal fields, ip and body encrypted for the event's subject. */
  protect: (event: EventToProtect) => Promise<{ data: unknown; metadata: EventMetadata }>;
  /** The events with their personal values decrypted, or ERASED where the key is gone. */
  reveal: (events: readonly RecordedEvent[]) => Promise<RecordedEvent[]>;
  /** Drops the subject's key: tenant purge (tenantSubject) or user deletion (userSubject). */
  erase: (subject: string) => Promise<void>;
};

const erasedSubjectError = (subject: string) =>
  new AppError('conflict', 'This data was permanently deleted and cannot be changed.', {
    message: `Personal data of ${subject} was erased; refusing to store new personal data for it`,
  });

const isPresent = (value: unknown): boolean => value !== null && value !== undefined;
const erasedIfPresent = <T>(value: T): T | typeof ERASED => (isPresent(value) ? ERASED : value);

export const createPersonalDataProtector = (deps: {
  keys: PersonalDataKeyStore;
  registry: EventRegistry;
}): PersonalDataProtector => {
  const { keys, registry } = deps;

  const protect = async (event: EventToProtect) => {
    const fields = registry.definitionOf(event.type)?.personalDataFields ?? [];
    const record = (event.data ?? {}) as Record<string, unknown>;
    const personal = fields.filter((field) => isPresent(record[field]));
    const { metadata } = event;
    const subject = subjectOf(event);
    if (subject === null) {
      // Platform-level streams (plans) keep the admin's ip and body in clear; personal fields never.
      if (personal.length > 0)
        throw new AppError('internal', 'Something went wrong.', {
          message: `Event ${event.type} in ${event.streamId} holds personal data but has no tenant or user to own it`,
        });
      return { data: event.data, metadata };
    }
    // Nothing to seal (a workflow's event: no personal field, no request ip or body): the event is
    // stored as it is whatever the subject's key, so the key (a write transaction) is not fetched.
    if (personal.length === 0 && !isPresent(metadata.ip) && !isPresent(metadata.body))
      return { data: event.data, metadata };
    const key = await keys.keyFor(subject);
    if (key === 'erased') {
      // Closing records (TenantPurged) may still be written; new personal data may not.
      if (personal.length > 0) throw erasedSubjectError(subject);
      return {
        data: event.data,
        metadata: { ...metadata, ip: erasedIfPresent(metadata.ip), body: erasedIfPresent(metadata.body) },
      };
    }
    const cipher = { subject, key };
    const encrypted = personal.map((field): [string, string] => [
      field,
      encrypt(cipher, record[field], `data.${field}`),
    ]);
    const data = personal.length === 0 ? event.data : { ...record, ...Object.fromEntries(encrypted) };
    return {
      data,
      metadata: {
        ...metadata,
        ip: isPresent(metadata.ip) ? encrypt(cipher, metadata.ip, 'metadata.ip') : metadata.ip,
        body: isPresent(metadata.body) ? encrypt(cipher, metadata.body, 'metadata.body') : metadata.body,
      },
    };
  };

  /**
   * Parses every sealed value first, fetches each subject's key once, then decrypts synchronously:
   * an await per field and event cost a PUT more than the decryption itself (docs/adr/0054).
   */
  const reveal = async (events: readonly RecordedEvent[]) => {
    const sealed = new Map<unknown, Sealed>();
    const subjects = new Set<string>();
    const note = (value: unknown) => {
      const parsed = parseSealed(value);
      if (!parsed) return;
      sealed.set(value, parsed);
      subjects.add(parsed.subject);
    };
    for (const event of events) {
      const { data } = event;
      if (data !== null && typeof data === 'object' && !Array.isArray(data))
        Object.values(data).forEach(note);
      note(event.metadata.ip);
      note(event.metadata.body);
    }
    // One key lookup per subject per batch: a stream usually has one subject.
    const keyList = await Promise.all([...subjects].map((subject) => keys.existingKey(subject)));
    const keyOf = new Map([...subjects].map((subject, index) => [subject, keyList[index] ?? null]));
    const open = (value: unknown, field: string): unknown => {
      const found = sealed.get(value);
      return found ? decrypt(found, keyOf.get(found.subject) ?? null, field) : value;
    };
    return events.map((event): RecordedEvent => {
      let data = event.data;
      if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
        data = Object.fromEntries(
          Object.entries(data).map(([field, value]) => [field, open(value, `data.${field}`)]),
        );
      }
      const ip = open(event.metadata.ip, 'metadata.ip');
      const body = open(event.metadata.body, 'metadata.body');
      return {
        ...event,
        data,
        metadata: { ...event.metadata, ip: typeof ip === 'string' ? ip : null, body },
      };
    });
  };

  return { protect, reveal, erase: (subject) => keys.erase(subject) };
};
