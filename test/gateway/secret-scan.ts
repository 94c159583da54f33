import { existsSync, readFileSync } from 'node:fs';
import type { World } from './gateway-world';
import { CREDENTIAL_VAULT_COLLECTION } from '../../commands/credential-vault';

/** The SQLite event store's file and write-ahead log, as bytes on disk. */
const eventStoreBytes = (world: World): string => {
  const path = (world.services.writeSide.store as unknown as { db: { name: string } }).db.name;
  return [path, `${path}-wal`]
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString('latin1'))
    .join('\n');
};

/** Every document of every read model (the audit history among them), except the vault itself. */
const readModelText = async (world: World): Promise<string> => {
  const { db } = world.services;
  const collections = await db.listCollections({}, { nameOnly: true }).toArray();
  const texts = await Promise.all(
    collections
      .filter((collection) => collection.name !== CREDENTIAL_VAULT_COLLECTION)
      .map(async (collection) => JSON.stringify(await db.collection(collection.name).find().toArray())),
  );
  return texts.join('\n');
};

/** Where a secret shows up readable: the event store file, the read models, or the vault's stored form. */
export const placesHolding = async (world: World, secret: string): Promise<string[]> => {
  await world.settle();
  const vault = JSON.stringify(
    await world.services.db.collection(CREDENTIAL_VAULT_COLLECTION).find().toArray(),
  );
  const places: [string, string][] = [
    ['event store', eventStoreBytes(world)],
    ['read models', await readModelText(world)],
    ['vault at rest', vault],
  ];
  return places.filter(([, text]) => text.includes(secret)).map(([name]) => name);
};

/** A small well-formedness check: one root, every tag closed in order, entities escaped. */
export const isWellFormedXml = (xml: string): boolean => {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  let roots = 0;
  for (const match of body.matchAll(/<(\/?)([A-Za-z_][\w.-]*)[^>]*?(\/?)>|&(?!(lt|gt|amp|apos|quot);)/g)) {
    if (match[0].startsWith('&')) return false;
    const [, closing, name, selfClosing] = match;
    if (closing) {
      if (stack.pop() !== name) return false;
    } else if (!selfClosing) {
      if (stack.length === 0) roots += 1;
      stack.push(name ?? '');
    }
  }
  return stack.length === 0 && roots === 1;
};

/** The text of one element of a flat XML document. */
export const xmlElement = (xml: string, name: string): string | null =>
  new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1] ?? null;
