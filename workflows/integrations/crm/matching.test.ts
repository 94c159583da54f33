import { defaultCrmSettings } from '../../../contracts/events/integration';
import {
  cleanedKey,
  diffLinks,
  matchCompanies,
  nameMethodsOf,
  type CompanyLink,
  type MatchCompany,
  type NameMethods,
} from './matching';

const all: NameMethods = { exact: true, cleaned: true, approx: true };

/** Matches one customer against the given CRM company names; answers the linked name and method. */
const matchOne = (customer: string, companies: string[], names: NameMethods = all) => {
  const { links } = matchCompanies({
    customers: [{ customerId: 'C1', name: customer }],
    companies: companies.map((name, i) => ({ crmId: `H${i}`, name, accountingId: null })),
    previous: [],
    names,
  });
  const [link] = links;
  return link ? { name: companies[Number(link.crmId.slice(1))], method: link.method } : null;
};

describe('cleaned names', () => {
  it.each([
    ['Acme, Inc.', 'acme'],
    ['ACME LLC', 'acme'],
    ['The Smith & Sons Co.', 'smith sons'],
    ['Smith and Sons Company', 'smith sons'],
    ['Société Générale S.A.', 'societe generale'],
    ['Müller GmbH', 'muller'],
    ['Zoë’s Café Ltd', 'zoes cafe'],
    ['Bäckerei Weiß GmbH & Co. KG', 'backerei weiss'],
    ['Philips N.V.', 'philips'],
    ['The Co', 'the co'],
    ["  O'Brien   Holdings  PLC ", 'obrien holdings'],
  ])('%s -> %s', (name, key) => {
    expect(cleanedKey(name)).toBe(key);
  });
});

describe('matching one customer by name', () => {
  it.each<[string, string, string[], NameMethods, { name: string | undefined; method: string } | null]>([
    [
      'exact ignores case and spaces',
      'acme  widgets',
      ['ACME Widgets', 'Acme Tools'],
      all,
      { name: 'ACME Widgets', method: 'exact' },
    ],
    [
      'exact alone does not strip suffixes',
      'Acme, Inc.',
      ['Acme'],
      { exact: true, cleaned: false, approx: false },
      null,
    ],
    [
      'cleaned strips legal forms and punctuation',
      'Acme, Inc.',
      ['ACME LLC'],
      all,
      { name: 'ACME LLC', method: 'cleaned' },
    ],
    [
      'cleaned folds accents',
      'Societe Generale',
      ['Société Générale S.A.'],
      all,
      { name: 'Société Générale S.A.', method: 'cleaned' },
    ],
    [
      'cleaned reads & as and',
      'Smith & Sons',
      ['The Smith and Sons Company'],
      all,
      { name: 'The Smith and Sons Company', method: 'cleaned' },
    ],
    [
      'approx forgives a typo',
      'Northwind Traders',
      ['Nortwind Traders Ltd', 'Contoso'],
      all,
      { name: 'Nortwind Traders Ltd', method: 'approx' },
    ],
    [
      'approx forgives a plural',
      'Blue Harbour Logistic',
      ['Blue Harbour Logistics'],
      all,
      { name: 'Blue Harbour Logistics', method: 'approx' },
    ],
    [
      'approx is off unless chosen',
      'Northwind Traders',
      ['Nortwind Traders'],
      { exact: true, cleaned: true, approx: false },
      null,
    ],
    ['different trades are not near enough', 'Smith Plumbing', ['Smith Plumbers'], all, null],
    [
      'two near-duplicates are refused, not guessed',
      'Acme Widget',
      ['Acme Widgets', 'Acme Widgetz'],
      all,
      null,
    ],
    [
      'an exact name wins over near-duplicates',
      'Acme Widgets',
      ['Acme Widgets', 'Acme Widgetz'],
      all,
      { name: 'Acme Widgets', method: 'exact' },
    ],
    ['two companies of the same cleaned name are refused', 'Acme', ['Acme Inc', 'ACME LLC'], all, null],
    ['nothing alike stays unmatched', 'Initech', ['Globex', 'Umbrella Corp'], all, null],
  ])('%s', (_, customer, companies, names, expected) => {
    expect(matchOne(customer, companies, names)).toEqual(expected);
  });
});

describe('matching a seller', () => {
  const company = (crmId: string, name: string, accountingId: string | null = null): MatchCompany => ({
    crmId,
    name,
    accountingId,
  });

  it('links by accounting identifier first, whatever the names say', () => {
    const { links } = matchCompanies({
      customers: [
        { customerId: '17', name: 'Acme' },
        { customerId: '18', name: 'Globex' },
      ],
      companies: [company('H1', 'Acme'), company('H2', 'Something else', '17'), company('H3', 'Globex')],
      previous: [],
      names: all,
    });
    expect(links).toEqual(
      expect.arrayContaining([
        { customerId: '17', crmId: 'H2', method: 'accountingId' },
        { customerId: '18', crmId: 'H3', method: 'exact' },
      ]),
    );
    expect(links).toHaveLength(2);
  });

  it('refuses an accounting id two companies claim, and links one company to one customer only', () => {
    const { links, ambiguous } = matchCompanies({
      customers: [
        { customerId: '1', name: 'Twin' },
        { customerId: '2', name: 'Twin' },
        { customerId: '3', name: 'Solo' },
      ],
      companies: [company('H1', 'X', '3'), company('H2', 'Y', '3'), company('H3', 'Twin')],
      previous: [],
      names: all,
    });
    expect(links).toEqual([]);
    expect(ambiguous).toBeGreaterThan(0);
  });

  it('matches by accounting identifier only when MatchUsingNames is off', () => {
    const names = nameMethodsOf({ ...defaultCrmSettings, MatchUsingNames: false });
    expect(names).toBeNull();
    const { links } = matchCompanies({
      customers: [{ customerId: '1', name: 'Acme' }],
      companies: [company('H1', 'Acme')],
      previous: [],
      names,
    });
    expect(links).toEqual([]);
  });

  it('keeps a recorded link while both ends exist, and the default settings match exact names', () => {
    expect(nameMethodsOf(defaultCrmSettings)).toEqual({ exact: true, cleaned: false, approx: false });
    const previous: CompanyLink[] = [{ customerId: '1', crmId: 'H9', method: 'created' }];
    const { links } = matchCompanies({
      customers: [{ customerId: '1', name: 'Acme' }],
      companies: [company('H1', 'Acme'), company('H9', 'Acme (from Ledgerwise)')],
      previous,
      names: nameMethodsOf(defaultCrmSettings),
    });
    expect(links).toEqual(previous);
  });

  it('answers the change against the recorded links', () => {
    const previous: CompanyLink[] = [
      { customerId: '1', crmId: 'H1', method: 'exact' },
      { customerId: '2', crmId: 'H2', method: 'exact' },
    ];
    const next: CompanyLink[] = [
      { customerId: '1', crmId: 'H1', method: 'exact' },
      { customerId: '3', crmId: 'H3', method: 'cleaned' },
    ];
    expect(diffLinks(previous, next)).toEqual({ linked: [next[1]], unlinked: ['2'] });
  });

  it('stays near-linear on 20,000 names a side', () => {
    const customers = Array.from({ length: 20_000 }, (_, i) => ({
      customerId: String(i),
      name: `Customer ${i} Holdings`,
    }));
    const companies = customers.map((c, i) => company(`H${i}`, `${c.name}, Inc.`));
    const started = performance.now();
    const { links } = matchCompanies({ customers, companies, previous: [], names: all });
    expect(links).toHaveLength(20_000);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
