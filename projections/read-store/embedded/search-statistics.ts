import type Database from 'better-sqlite3';

/**
 * Which part of a searched text a trigram lookup should ask the search index for
 * (docs/adr/0051-admin-table-counts-and-search.md, "Rarest part"). FTS5 reads the whole doclist of
 * every trigram of a phrase: "user 1000150" reads "use", "ser" and "er " (one entry per user) beside
 * the rare "015" and "150", so its cost grows with the collection although it finds one row. Any
 * part of the text (3 characters or more) is a superset of the text's matches, and mingo decides
 * every row anyway, so the lookup may ask for the part whose trigrams cost least to read while still
 * leaving few rows to check. How common each trigram is comes from a sample of the index's rows, kept
 * per connection for a minute; a wrong estimate costs time, never a result.
 */

/** Rows read to estimate how common each trigram is. */
const SAMPLE_ROWS = 2000;
/** A sample is read again after this long (the collection may have grown or changed). */
const SAMPLE_TTL_MS = 60_000;
/** Parts longer than this are not considered (a search box holds a few words). */
const LONGEST_PART = 24;
const TRIGRAM = 3;

/**
 * Milliseconds, roughly, measured on the admin tables' searches (bench admin-tables, 300,000 users
 * and 100,000 sellers): opening one trigram's doclist within a phrase, reading one of its entries
 * (FTS5 seeks within long doclists: a trigram of every row costs about 0.15 ms more), and fetching,
 * decoding and checking one candidate row.
 */
const COST_PER_TRIGRAM = 0.02;
const COST_PER_ENTRY = 5e-7;
const COST_PER_ROW = 0.01;
/**
 * A part whose rarest trigram is in at most this many sampled rows is counted in those rows;
 * a part of commoner trigrams only is estimated as a chain.
 */
const CHECKED_PER_PART = 24;

export type TrigramSample = {
  /** Rows of the index (its largest rowid, an upper bound). */
  rows: number;
  /** The sampled rows' searched columns, lower case, joined by a character no search holds. */
  texts: readonly string[];
  /** For each trigram, the sampled rows (indexes into texts) that hold it. */
  postings: ReadonlyMap<string, readonly number[]>;
  /** For each pair of characters, how many sampled rows hold it. */
  pairs: ReadonlyMap<string, number>;
};

const trigramsOf = (text: string): string[] => {
  const out: string[] = [];
  for (let i = 0; i + TRIGRAM <= text.length; i += 1) out.push(text.slice(i, i + TRIGRAM));
  return out;
};

export const sampleOf = (rows: number, values: readonly (readonly unknown[])[]): TrigramSample => {
  const texts = values.map((row) =>
    row
      .filter((value) => value !== null && value !== undefined)
      .map((value) => (typeof value === 'string' ? value : JSON.stringify(value)).toLowerCase())
      .join('\u0000'),
  );
  const postings = new Map<string, number[]>();
  const pairs = new Map<string, number>();
  texts.forEach((text, index) => {
    for (const trigram of new Set(trigramsOf(text))) {
      const list = postings.get(trigram);
      if (list) list.push(index);
      else postings.set(trigram, [index]);
    }
    const inRow = new Set<string>();
    for (let i = 0; i + 2 <= text.length; i += 1) inRow.add(text.slice(i, i + 2));
    for (const pair of inRow) pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
  });
  return { rows, texts, postings, pairs };
};

/**
 * The part of `text` (3 characters or more) whose lookup should cost least: reading its trigrams'
 * doclists against checking the rows the part leaves. The rows a part leaves are counted in the
 * sample (the sampled rows that contain it); a part no sampled row contains is estimated as a chain
 * (its first trigram's share, then each next character's share after the two before it), at most
 * what one sampled row would stand for. The whole text when nothing is known.
 */
export const cheapestPart = (text: string, sample: TrigramSample): string => {
  const lower = text.toLowerCase();
  const sampled = sample.texts.length;
  if (sampled === 0 || lower.length <= TRIGRAM) return text;
  const trigrams = trigramsOf(lower);
  const postings = trigrams.map((trigram) => sample.postings.get(trigram) ?? []);
  const after = trigrams.map(
    (trigram, i) => (postings[i]!.length + 0.5) / ((sample.pairs.get(trigram.slice(0, 2)) ?? 0) + 1),
  );
  let best = { cost: Number.POSITIVE_INFINITY, from: 0, to: lower.length };
  // Short parts first: a good best early lets the second pass stop most parts after a trigram or two.
  const scan = (fewestTrigrams: number, mostTrigrams: number) => {
    for (let from = 0; from < trigrams.length; from += 1) {
      const seen = new Set<string>();
      let entries = 0;
      let chain = 1;
      let rarest: readonly number[] = [];
      for (let last = from; last < trigrams.length && last - from + TRIGRAM <= LONGEST_PART; last += 1) {
        const trigram = trigrams[last]!;
        if (!seen.has(trigram)) {
          if (seen.size === mostTrigrams) break;
          seen.add(trigram);
          const holding = postings[last]!;
          entries += (holding.length + 0.5) / (sampled + 1);
          if (seen.size === 1 || holding.length < rarest.length) rarest = holding;
        }
        chain *= last === from ? (postings[last]!.length + 0.5) / (sampled + 1) : after[last]!;
        const floor = COST_PER_TRIGRAM * seen.size + COST_PER_ENTRY * sample.rows * entries + COST_PER_ROW;
        // Longer parts only add trigrams: nothing from here on can cost less than the best.
        if (floor >= best.cost) break;
        if (seen.size < fewestTrigrams) continue;
        let leftRows: number;
        if (rarest.length > CHECKED_PER_PART) {
          // Every trigram is common in the sample: the chain estimate rests on many rows.
          leftRows = sample.rows * chain;
        } else {
          const part = lower.slice(from, last + TRIGRAM);
          let holding = 0;
          for (const row of rarest) if (sample.texts[row]!.includes(part)) holding += 1;
          leftRows =
            holding > 0
              ? (sample.rows * (holding + 0.5)) / (sampled + 1)
              : Math.min((sample.rows * 0.5) / (sampled + 1), sample.rows * chain);
        }
        const cost = floor + COST_PER_ROW * (Math.max(1, leftRows) - 1);
        if (cost < best.cost) best = { cost, from, to: last + TRIGRAM };
      }
    }
  };
  scan(1, 2);
  scan(3, Number.POSITIVE_INFINITY);
  return text.slice(best.from, best.to);
};

/** Samples of each search index, read on first use and again after SAMPLE_TTL_MS. */
export class SearchStatistics {
  private readonly samples = new Map<string, { sample: TrigramSample; at: number }>();

  constructor(
    private readonly sqlite: Database.Database,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The part of `text` to look up in these columns of this FTS5 table (see cheapestPart). */
  part(search: { table: string; columns: readonly string[]; text: string }): string {
    const key = `${search.table}\u0000${search.columns.join(' ')}`;
    let entry = this.samples.get(key);
    if (!entry || this.clock() - entry.at > SAMPLE_TTL_MS) {
      entry = { sample: this.read(search.table, search.columns), at: this.clock() };
      this.samples.set(key, entry);
    }
    return cheapestPart(search.text, entry.sample);
  }

  private read(table: string, columns: readonly string[]): TrigramSample {
    const empty = sampleOf(0, []);
    try {
      const rows =
        (this.sqlite.prepare(`SELECT rowid FROM ${table} ORDER BY rowid DESC LIMIT 1`).pluck().get() as
          number | undefined) ?? 0;
      if (rows === 0) return empty;
      const select = `SELECT ${columns.join(', ')} FROM ${table}`;
      const found = (
        rows <= SAMPLE_ROWS
          ? this.sqlite.prepare(select).raw(true).all()
          : this.sqlite
              .prepare(`${select} WHERE rowid IN (SELECT value FROM json_each(?))`)
              .raw(true)
              .all(JSON.stringify(randomRowids(rows)))
      ) as unknown[][];
      return sampleOf(rows, found);
    } catch {
      // The index went away meanwhile (a collection dropped): the whole text is looked up.
      return empty;
    }
  }
}

const randomRowids = (rows: number): number[] => {
  const picked = new Set<number>();
  while (picked.size < SAMPLE_ROWS) picked.add(1 + Math.floor(Math.random() * rows));
  return [...picked];
};
