import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Industry, IndustrySource } from '../../contracts/industries';

/** Seconds a browser may cache an industry list (portal.md section 9: industries cache 1 hour). */
export const industriesMaxAgeSeconds = 3600;

const loaders: Record<IndustrySource, () => Industry[]> = {
  // Loaded on first use (about 2 MB), then kept: the lists change only with a new classification.
  NAICS2017: () => JSON.parse(readFileSync(join(__dirname, 'data', 'naics2017.json'), 'utf8')) as Industry[],
  SIC: () => JSON.parse(readFileSync(join(__dirname, 'data', 'sic.json'), 'utf8')) as Industry[],
};
const loaded = new Map<IndustrySource, Industry[]>();

export const industriesOf = (source: IndustrySource): Industry[] => {
  let list = loaded.get(source);
  if (!list) {
    list = loaders[source]();
    loaded.set(source, list);
  }
  return list;
};
