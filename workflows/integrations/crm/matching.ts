import type { CrmMatchMethod, CrmSettings } from '../../../contracts/events/integration';

/**
 * Links a seller's accounting customers to CRM companies (docs/adr/0045-crm-sync.md): by the
 * accounting identifier first, then the links already recorded, then by name when MatchUsingNames
 * (Exact, Cleaned, Approx, each on what is still unmatched). One company per customer and one customer
 * per company; a name that fits two candidates equally well links neither: a wrong link would push a
 * customer's overdue invoices onto someone else's company, a missing one only waits for a person.
 */
export type MatchCustomer = {
  customerId: string;
  name: string;
  /** The accounting platform's own id when it differs from the customer id (Xero's GUIDs). */
  providerId?: string | null;
};
export type MatchCompany = { crmId: string; name: string; accountingId: string | null };
export type CompanyLink = { customerId: string; crmId: string; method: CrmMatchMethod };

export type NameMethods = { exact: boolean; cleaned: boolean; approx: boolean };

/**
 * MatchUsingNames turns name matching on. Exact always runs first (Cleaned and Approx accept every
 * exact pair anyway, and the link then says the names were equal); MatchUsingNamesCleaned and
 * MatchUsingNamesApprox add the looser passes. MatchUsingNamesExact alone is the spec's default.
 */
export const nameMethodsOf = (settings: CrmSettings): NameMethods | null =>
  settings.MatchUsingNames
    ? { exact: true, cleaned: settings.MatchUsingNamesCleaned, approx: settings.MatchUsingNamesApprox }
    : null;

/** Case and spacing only: "ACME  Widgets" equals "acme widgets". */
export const exactKey = (name: string): string =>
  name.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

const legalSuffixes = new Set([
  'inc',
  'incorporated',
  'llc',
  'llp',
  'lp',
  'ltd',
  'limited',
  'gmbh',
  'ag',
  'kg',
  'corp',
  'corporation',
  'co',
  'company',
  'plc',
  'sa',
  'sas',
  'sarl',
  'srl',
  'spa',
  'bv',
  'nv',
  'pty',
  'pte',
  'oy',
  'ab',
  'as',
  'aps',
  'kk',
  'sl',
  'se',
  'pc',
  'pllc',
]);

/**
 * Accents, punctuation, "&"/"and", a leading "the" and trailing legal forms removed: "The Café & Bar,
 * Ltd." and "cafe and bar" are one name. Dotted forms (S.A., B.V., L.L.C.) are joined before the
 * suffixes are stripped. A name made only of such words keeps them (a company called "The Co").
 */
const nonAscii = /[^ -~]/;
const dottedForm = /\b((?:\p{L}\.){2,})/gu;
const asciiSeparators = /[^a-z0-9]+/;
const separators = /[^\p{L}\p{N}]+/u;

/** Accents off and the letters with no decomposition spelled out (ß, æ, ø). */
const foldAccents = (lower: string) =>
  lower
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o');

export const cleanedKey = (name: string): string => {
  const ascii = !nonAscii.test(name);
  let plain = ascii ? name.toLowerCase() : foldAccents(name.toLowerCase());
  // "s.a." / "l.l.c." / "b.v." -> "sa" / "llc" / "bv"
  if (plain.includes('.')) plain = plain.replace(dottedForm, (dotted) => dotted.replace(/\./g, ''));
  if (plain.includes("'") || plain.includes('’') || plain.includes('`')) plain = plain.replace(/['’`]/g, '');
  // "&", "+" and "and" all separate words, and separators are dropped.
  const tokens = plain.split(ascii ? asciiSeparators : separators).filter((token) => token !== '');
  const words = tokens.filter((token) => token !== 'and');
  let start = words[0] === 'the' ? 1 : 0;
  let end = words.length;
  while (end > start && legalSuffixes.has(words[end - 1] ?? '')) end -= 1;
  if (end === start) start = end = 0;
  const kept = words.slice(start, end);
  return (kept.length > 0 ? kept : tokens).join(' ');
};

/** Trigrams of a cleaned name, padded so the first and last letters weigh as much as the middle. */
const trigramsOf = (key: string): Map<string, number> => {
  const padded = `  ${key} `;
  const grams = new Map<string, number>();
  for (let i = 0; i + 3 <= padded.length; i += 1) {
    const gram = padded.slice(i, i + 3);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  return grams;
};

/** Dice coefficient over trigram multisets: 1 for the same name, 0 for nothing in common. */
export const trigramSimilarity = (a: string, b: string): number => {
  if (a === b) return 1;
  const ga = trigramsOf(a);
  const gb = trigramsOf(b);
  let shared = 0;
  let total = 0;
  for (const [gram, count] of ga) {
    shared += Math.min(count, gb.get(gram) ?? 0);
    total += count;
  }
  for (const count of gb.values()) total += count;
  return total === 0 ? 0 : (2 * shared) / total;
};

/** Approx links two names at or above this similarity, and only when no rival comes within the margin. */
export const APPROX_THRESHOLD = 0.8;
export const APPROX_MARGIN = 0.05;
/** A blocking key shared by more names than this (a word like "services") proposes no candidates. */
const MAX_BLOCK = 64;

const blockKeysOf = (key: string): string[] => {
  const tokens = key.split(' ').filter((token) => token.length >= 3);
  const compact = key.replace(/ /g, '');
  return [
    ...new Set([
      ...tokens.map((token) => `t:${token}`),
      `p:${compact.slice(0, 4)}`,
      `s:${compact.slice(-4)}`,
    ]),
  ];
};

/** Several items hold the key: a sentinel instead of a list, so a 100k-name pass allocates no arrays. */
const SHARED = -1;

/** Key -> the one index holding it, or SHARED; empty keys are skipped. */
const indexByKey = (keys: readonly string[], indexes: readonly number[]): Map<string, number> => {
  const byKey = new Map<string, number>();
  for (const index of indexes) {
    const key = keys[index];
    if (!key) continue;
    byKey.set(key, byKey.has(key) ? SHARED : index);
  }
  return byKey;
};

/** Pairs the keys held by exactly one unmatched item on each side; answers [left, right] indexes. */
const pairUniqueKeys = (
  left: { keys: readonly string[]; open: readonly number[] },
  right: { keys: readonly string[]; open: readonly number[] },
): { pairs: [number, number][]; ambiguous: number } => {
  const rightByKey = indexByKey(right.keys, right.open);
  const pairs: [number, number][] = [];
  let ambiguous = 0;
  for (const [key, leftIndex] of indexByKey(left.keys, left.open)) {
    const rightIndex = rightByKey.get(key);
    if (rightIndex === undefined) continue;
    if (leftIndex === SHARED || rightIndex === SHARED) ambiguous += 1;
    else pairs.push([leftIndex, rightIndex]);
  }
  return { pairs, ambiguous };
};

type Scored = { index: number; score: number };

/** Best and second-best candidates of each item, over the blocks it shares with the other side. */
const bestCandidates = (keys: string[], otherKeys: string[]): { best: Scored | null; rival: number }[] => {
  const blocks = new Map<string, number[]>();
  otherKeys.forEach((key, index) => {
    for (const block of blockKeysOf(key)) {
      const list = blocks.get(block);
      if (list) list.push(index);
      else blocks.set(block, [index]);
    }
  });
  return keys.map((key) => {
    const seen = new Set<number>();
    let best: Scored | null = null;
    let rival = 0;
    for (const block of blockKeysOf(key)) {
      const list = blocks.get(block);
      if (!list || list.length > MAX_BLOCK) continue;
      for (const index of list) {
        if (seen.has(index)) continue;
        seen.add(index);
        const score = trigramSimilarity(key, otherKeys[index] ?? '');
        if (best === null || score > best.score) {
          rival = best?.score ?? rival;
          best = { index, score };
        } else if (score > rival) rival = score;
      }
    }
    return { best, rival };
  });
};

/**
 * Approx: each customer's most similar company over the blocks they share, linked when it is at or above
 * the threshold, no rival comes within the margin (on either side) and the company's own best is that
 * customer. Blocking keeps 100k x 100k near-linear: a name meets only the names sharing a word, its first
 * four or its last four letters.
 */
const pairApprox = (
  left: { keys: readonly string[]; open: readonly number[] },
  right: { keys: readonly string[]; open: readonly number[] },
): { pairs: [number, number][]; ambiguous: number } => {
  const leftKeys = left.open.map((index) => left.keys[index] ?? '');
  const rightKeys = right.open.map((index) => right.keys[index] ?? '');
  const forward = bestCandidates(leftKeys, rightKeys);
  const backward = bestCandidates(rightKeys, leftKeys);
  const pairs: [number, number][] = [];
  let ambiguous = 0;
  forward.forEach(({ best, rival }, leftAt) => {
    if (best === null || best.score < APPROX_THRESHOLD) return;
    const back = backward[best.index];
    const clear =
      best.score - rival >= APPROX_MARGIN &&
      back?.best?.index === leftAt &&
      back.best.score - back.rival >= APPROX_MARGIN;
    const leftIndex = left.open[leftAt];
    const rightIndex = right.open[best.index];
    if (clear && leftIndex !== undefined && rightIndex !== undefined) pairs.push([leftIndex, rightIndex]);
    else ambiguous += 1;
  });
  return { pairs, ambiguous };
};

export type MatchInput = {
  customers: readonly MatchCustomer[];
  companies: readonly MatchCompany[];
  /** The links recorded before, kept while both ends exist and nothing stronger claims them. */
  previous: readonly CompanyLink[];
  /** null: match by accounting identifier only. */
  names: NameMethods | null;
};

export type MatchResult = {
  links: CompanyLink[];
  /** Names (or accounting ids) that fitted more than one candidate and were left unlinked. */
  ambiguous: number;
};

export const matchCompanies = (input: MatchInput): MatchResult => {
  const { customers, companies } = input;
  const links: CompanyLink[] = [];
  // By index, not by id: a pass over 100k names then allocates no sets of strings.
  const customerLinked = new Uint8Array(customers.length);
  const companyLinked = new Uint8Array(companies.length);
  let ambiguous = 0;
  const link = (customerAt: number, companyAt: number, method: CrmMatchMethod) => {
    const customer = customers[customerAt];
    const company = companies[companyAt];
    if (!customer || !company || customerLinked[customerAt] || companyLinked[companyAt]) return;
    customerLinked[customerAt] = 1;
    companyLinked[companyAt] = 1;
    links.push({ customerId: customer.customerId, crmId: company.crmId, method });
  };

  // 1. The accounting identifier (the customer id, or the platform's id): a company that only it names.
  const customerByAccountingId = new Map<string, number>();
  customers.forEach((customer, at) => {
    customerByAccountingId.set(customer.customerId, at);
    if (customer.providerId) customerByAccountingId.set(customer.providerId, at);
  });
  const companyByCustomer = new Map<number, number>();
  companies.forEach((company, at) => {
    const id = company.accountingId?.trim();
    const customerAt = id ? customerByAccountingId.get(id) : undefined;
    if (customerAt === undefined) return;
    companyByCustomer.set(customerAt, companyByCustomer.has(customerAt) ? SHARED : at);
  });
  for (const [customerAt, companyAt] of companyByCustomer)
    if (companyAt === SHARED) ambiguous += 1;
    else link(customerAt, companyAt, 'accountingId');

  // 2. Links made before (by name, or companies we created) stay while both ends are there.
  if (input.previous.length > 0) {
    const customerAtOf = new Map(customers.map((customer, at) => [customer.customerId, at]));
    const companyAtOf = new Map(companies.map((company, at) => [company.crmId, at]));
    for (const previous of input.previous) {
      const customerAt = customerAtOf.get(previous.customerId);
      const companyAt = companyAtOf.get(previous.crmId);
      if (customerAt !== undefined && companyAt !== undefined) link(customerAt, companyAt, previous.method);
    }
  }

  // 3. Names, strictest first, each on what is still unmatched; Approx reuses the cleaned keys.
  const methods = input.names;
  if (methods) {
    const passes: { method: CrmMatchMethod; keyOf: (name: string) => string; approx: boolean }[] = [];
    if (methods.exact) passes.push({ method: 'exact', keyOf: exactKey, approx: false });
    if (methods.cleaned) passes.push({ method: 'cleaned', keyOf: cleanedKey, approx: false });
    if (methods.approx) passes.push({ method: 'approx', keyOf: cleanedKey, approx: true });
    const keysOf = new Map<(name: string) => string, { customers: string[]; companies: string[] }>();
    for (const pass of passes) {
      const open = (linked: Uint8Array) => {
        const indexes: number[] = [];
        for (let at = 0; at < linked.length; at += 1) if (!linked[at]) indexes.push(at);
        return indexes;
      };
      const openCustomers = open(customerLinked);
      const openCompanies = open(companyLinked);
      let keys = keysOf.get(pass.keyOf);
      if (!keys) {
        keys = {
          customers: new Array<string>(customers.length),
          companies: new Array<string>(companies.length),
        };
        keysOf.set(pass.keyOf, keys);
      }
      for (const at of openCustomers) keys.customers[at] ??= pass.keyOf(customers[at]?.name ?? '');
      for (const at of openCompanies) keys.companies[at] ??= pass.keyOf(companies[at]?.name ?? '');
      const left = { keys: keys.customers, open: openCustomers };
      const right = { keys: keys.companies, open: openCompanies };
      const found = pass.approx ? pairApprox(left, right) : pairUniqueKeys(left, right);
      for (const [customerAt, companyAt] of found.pairs) link(customerAt, companyAt, pass.method);
      // Only the last pass's leftovers stay unlinked for good; earlier ones may still match later.
      if (pass === passes[passes.length - 1]) ambiguous += found.ambiguous;
    }
  }
  return { links, ambiguous };
};

/** The change from the recorded links to the new ones: what IntegrationCompaniesMatched carries. */
export const diffLinks = (
  previous: readonly CompanyLink[],
  next: readonly CompanyLink[],
): { linked: CompanyLink[]; unlinked: string[] } => {
  const before = new Map(previous.map((link) => [link.customerId, link]));
  const after = new Map(next.map((link) => [link.customerId, link]));
  const linked = next.filter((link) => {
    const old = before.get(link.customerId);
    return !old || old.crmId !== link.crmId || old.method !== link.method;
  });
  const unlinked = previous.filter((link) => !after.has(link.customerId)).map((link) => link.customerId);
  return { linked, unlinked };
};
