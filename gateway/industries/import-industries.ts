/**
 * Turns the published 2017 NAICS files and the SIC-to-NAICS crosswalk (../shared/data/industries) into the
 * JSON the gateway serves, so the product never reads ../shared at run time. Run once when the data changes:
 *   npx tsx gateway/industries/import-industries.ts ../shared/data/industries
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Industry } from '../../contracts/industries';

/** RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks. */
export const parseDelimited = (text: string, delimiter = ','): string[][] => {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const source = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < source.length; i += 1) {
    const char = source[i];
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === delimiter) {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
};

const clean = (text: string) => text.replace(/\s+/g, ' ').trim();
/** Titles in the descriptions file end with a stray "T" footnote marker. */
const cleanTitle = (title: string) => clean(title).replace(/T$/, '');
/** The definition without its cross-reference list, which names other codes rather than describing this one. */
const cleanDescription = (text: string) =>
  clean(text.split(/Cross-References\.?/)[0] ?? '')
    .replace(/^The Sector as a Whole\s*/, '')
    .trim();
const titleCase = (text: string) =>
  clean(text)
    .toLowerCase()
    .replace(/\b([a-z])/g, (c) => c.toUpperCase())
    .replace(/\bNec\b/g, 'NEC'); // "not elsewhere classified"

export const buildNaics = (folder: string): Industry[] => {
  const titles = new Map<string, string>();
  for (const [, code = '', title = ''] of parseDelimited(
    readFileSync(join(folder, '2-6_digit_2017_Codes.csv'), 'utf8'),
  ).slice(1)) {
    if (/^\d{2,6}$/.test(code.trim())) titles.set(code.trim(), clean(title));
  }
  const descriptions = new Map<string, string>();
  for (const [code = '', title = '', description = ''] of parseDelimited(
    readFileSync(join(folder, '2017_NAICS_Descriptions.csv'), 'utf8'),
  ).slice(1)) {
    const key = code.trim();
    if (!titles.has(key) && /^\d{2,6}$/.test(key)) titles.set(key, cleanTitle(title));
    descriptions.set(key, cleanDescription(description));
  }
  const examples = new Map<string, string[]>();
  for (const [code = '', item = ''] of parseDelimited(
    readFileSync(join(folder, '2017_NAICS_Index_File.csv'), 'utf8'),
  ).slice(1)) {
    const key = code.trim();
    if (!/^\d{6}$/.test(key) || item.trim() === '') continue;
    examples.set(key, [...(examples.get(key) ?? []), clean(item)]);
  }
  const codes = [...titles.keys()].sort((a, b) => a.localeCompare(b));
  const described = (code: string): string | undefined => {
    const own = descriptions.get(code);
    const pointer = own ? /^See industry description for (\d+)\.?$/.exec(own) : null;
    if (pointer?.[1]) return described(pointer[1]);
    return own && own !== 'NULL' ? own : undefined;
  };
  // A code whose definition is "NULL" in the source has one child that carries it (5112 -> 511210);
  // codes above 6 digits have no index entries of their own, so their children's entries serve as examples.
  const descendants = (code: string) => codes.filter((other) => other !== code && other.startsWith(code));
  return codes.map((Code) => ({
    Code,
    Title: titles.get(Code) ?? '',
    Description: described(Code) ?? descendants(Code).map(described).find(Boolean) ?? '',
    Examples:
      examples.get(Code) ??
      descendants(Code)
        .flatMap((child) => examples.get(child) ?? [])
        .slice(0, 20),
  }));
};

export const buildSic = (folder: string): Industry[] => {
  const bySic = new Map<string, { title: string; naics: Set<string> }>();
  for (const [sic = '', sicTitle = '', , naicsTitle = ''] of parseDelimited(
    readFileSync(join(folder, 'crosswalk_Sic_to_Naics.csv'), 'utf8'),
    '\t',
  ).slice(1)) {
    const code = sic.trim().padStart(4, '0');
    if (!/^\d{4}$/.test(code)) continue;
    const entry = bySic.get(code) ?? { title: titleCase(sicTitle), naics: new Set<string>() };
    if (naicsTitle.trim()) entry.naics.add(clean(naicsTitle));
    bySic.set(code, entry);
  }
  return [...bySic.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([Code, { title, naics }]) => ({
      Code,
      Title: title,
      Description: naics.size > 0 ? `Classified under NAICS 2017 as: ${[...naics].join('; ')}.` : '',
      Examples: [...naics],
    }));
};

if (require.main === module) {
  const folder = resolve(
    process.argv[2] ?? join(__dirname, '..', '..', '..', 'shared', 'data', 'industries'),
  );
  const naics = buildNaics(folder);
  const sic = buildSic(folder);
  writeFileSync(join(__dirname, 'data', 'naics2017.json'), `${JSON.stringify(naics)}\n`);
  writeFileSync(join(__dirname, 'data', 'sic.json'), `${JSON.stringify(sic)}\n`);
  process.stdout.write(`NAICS 2017: ${naics.length} industries; SIC: ${sic.length} industries\n`);
}
