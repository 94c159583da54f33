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
export const cleanedKey = (name: string): string => {
  const plain = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o')
    .replace(/&/g, ' and ')
    .replace(/\+/g, ' and ')
    // "s.a." / "l.l.c." / "b.v." -> "sa" / "llc" / "bv"
    .replace(/\b((?:\p{L}\.){2,})/gu, (dotted) => dotted.replace(/\./g, ''))
    .replace(/['’`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  const tokens = plain.split(' ').filter(Boolean);
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

type Side<T> = { item: T; key: string };

/** Pairs the names whose key is held by exactly one unmatched item on each side. */
const pairUniqueKeys = <A, B>(left: Side<A>[], right: Side<B>[]): { pairs: [A, B][]; ambiguous: number } => {
  const group = <T>(sides: Side<T>[]) => {
    const byKey = new Map<string, T[]>();
    for (const side of sides) {
      if (!side.key) continue;
      const list = byKey.get(side.key);
      if (list) list.push(side.item);
      else byKey.set(side.key, [side.item]);
    }
    return byKey;
  };
  const rightByKey = group(right);
  const pairs: [A, B][] = [];
  let ambiguous = 0;
  for (const [key, lefts] of group(left)) {
    const rights = rightByKey.get(key);
    if (!rights) continue;
    const [onlyLeft] = lefts;
    const [onlyRight] = rights;
    if (lefts.length === 1 && rights.length === 1 && onlyLeft !== undefined && onlyRight !== undefined)
      pairs.push([onlyLeft, onlyRight]);
    else ambiguous += 1;
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
const pairApprox = <A, B>(left: Side<A>[], right: Side<B>[]): { pairs: [A, B][]; ambiguous: number } => {
  const leftKeys = left.map((side) => side.key);
  const rightKeys = right.map((side) => side.key);
  const forward = bestCandidates(leftKeys, rightKeys);
  const backward = bestCandidates(rightKeys, leftKeys);
  const pairs: [A, B][] = [];
  let ambiguous = 0;
  forward.forEach(({ best, rival }, leftIndex) => {
    if (best === null || best.score < APPROX_THRESHOLD) return;
    const back = backward[best.index];
    const clear =
      best.score - rival >= APPROX_MARGIN &&
      back?.best?.index === leftIndex &&
      back.best.score - back.rival >= APPROX_MARGIN;
    const a = left[leftIndex];
    const b = right[best.index];
    if (clear && a && b) pairs.push([a.item, b.item]);
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
  const links: CompanyLink[] = [];
  const linkedCustomers = new Set<string>();
  const linkedCompanies = new Set<string>();
  let ambiguous = 0;
  const link = (customerId: string, crmId: string, method: CrmMatchMethod) => {
    if (linkedCustomers.has(customerId) || linkedCompanies.has(crmId)) return;
    linkedCustomers.add(customerId);
    linkedCompanies.add(crmId);
    links.push({ customerId, crmId, method });
  };
  const customerIds = new Set(input.customers.map((customer) => customer.customerId));
  const customerByAccountingId = new Map<string, string>();
  for (const customer of input.customers) {
    customerByAccountingId.set(customer.customerId, customer.customerId);
    if (customer.providerId) customerByAccountingId.set(customer.providerId, customer.customerId);
  }

  // 1. The accounting identifier (the customer id, or the platform's id): a company that only it names.
  const byAccountingId = new Map<string, MatchCompany[]>();
  for (const company of input.companies) {
    const id = company.accountingId?.trim();
    const customerId = id ? customerByAccountingId.get(id) : undefined;
    if (customerId === undefined) continue;
    const list = byAccountingId.get(customerId);
    if (list) list.push(company);
    else byAccountingId.set(customerId, [company]);
  }
  for (const [customerId, companies] of byAccountingId) {
    const [only] = companies;
    if (companies.length === 1 && only) link(customerId, only.crmId, 'accountingId');
    else ambiguous += 1;
  }

  // 2. Links made before (by name, or companies we created) stay while both ends are there.
  const companyIds = new Set(input.companies.map((company) => company.crmId));
  for (const previous of input.previous)
    if (customerIds.has(previous.customerId) && companyIds.has(previous.crmId))
      link(previous.customerId, previous.crmId, previous.method);

  // 3. Names, strictest first, each on what is still unmatched.
  const methods = input.names;
  if (methods) {
    const passes: { method: CrmMatchMethod; keyOf: (name: string) => string; approx: boolean }[] = [];
    if (methods.exact) passes.push({ method: 'exact', keyOf: exactKey, approx: false });
    if (methods.cleaned) passes.push({ method: 'cleaned', keyOf: cleanedKey, approx: false });
    if (methods.approx) passes.push({ method: 'approx', keyOf: cleanedKey, approx: true });
    for (const pass of passes) {
      const customers = input.customers
        .filter((customer) => !linkedCustomers.has(customer.customerId))
        .map((item) => ({ item, key: pass.keyOf(item.name) }));
      const companies = input.companies
        .filter((company) => !linkedCompanies.has(company.crmId))
        .map((item) => ({ item, key: pass.keyOf(item.name) }));
      const found = pass.approx ? pairApprox(customers, companies) : pairUniqueKeys(customers, companies);
      for (const [customer, company] of found.pairs) link(customer.customerId, company.crmId, pass.method);
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
