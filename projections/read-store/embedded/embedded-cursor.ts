/**
 * The part of the driver's FindCursor the product uses (sort, skip, limit, project, map, next,
 * toArray, async iteration), over rows the collection reads in batches. Nothing holds the SQLite
 * connection between batches, so an unfinished cursor never blocks other statements.
 */
export type FindSpec = {
  filter: Record<string, unknown>;
  sort?: Record<string, 1 | -1>;
  skip?: number;
  limit?: number;
  projection?: Record<string, unknown>;
};

export type CursorSource<T> = (spec: FindSpec) => Generator<T>;

export class EmbeddedCursor<T = Record<string, unknown>> implements AsyncIterable<T> {
  private iterator: Generator<unknown> | undefined;
  private readonly transforms: ((value: unknown) => unknown)[] = [];

  constructor(
    private readonly source: CursorSource<unknown>,
    private readonly spec: FindSpec,
  ) {}

  private assertNotStarted(method: string) {
    if (this.iterator) throw new Error(`Cursor.${method}() after the cursor started reading.`);
  }

  sort(sort: Record<string, 1 | -1> | [string, 1 | -1][]): this {
    this.assertNotStarted('sort');
    this.spec.sort = Array.isArray(sort) ? Object.fromEntries(sort) : sort;
    return this;
  }

  skip(count: number): this {
    this.assertNotStarted('skip');
    this.spec.skip = count;
    return this;
  }

  limit(count: number): this {
    this.assertNotStarted('limit');
    // As in MongoDB, limit(0) means no limit.
    this.spec.limit = count === 0 ? undefined : Math.abs(count);
    return this;
  }

  project<P = Record<string, unknown>>(projection: Record<string, unknown>): EmbeddedCursor<P> {
    this.assertNotStarted('project');
    this.spec.projection = projection;
    return this as unknown as EmbeddedCursor<P>;
  }

  /** Batch sizes are the store's own; accepted for the driver's API. */
  batchSize(): this {
    return this;
  }

  map<U>(transform: (doc: T) => U): EmbeddedCursor<U> {
    this.assertNotStarted('map');
    this.transforms.push(transform as (value: unknown) => unknown);
    return this as unknown as EmbeddedCursor<U>;
  }

  private pull(): IteratorResult<T> {
    this.iterator ??= this.source(this.spec);
    const step = this.iterator.next();
    if (step.done) return { done: true, value: undefined };
    let value: unknown = step.value;
    for (const transform of this.transforms) value = transform(value);
    return { done: false, value: value as T };
  }

  next(): Promise<T | null> {
    const step = this.pull();
    return Promise.resolve(step.done ? null : step.value);
  }

  hasNext(): Promise<boolean> {
    return Promise.reject(
      new Error('Cursor.hasNext() is not supported by the embedded read store; use next().'),
    );
  }

  toArray(): Promise<T[]> {
    const out: T[] = [];
    for (let step = this.pull(); !step.done; step = this.pull()) out.push(step.value);
    return Promise.resolve(out);
  }

  close(): Promise<void> {
    this.iterator?.return(undefined);
    return Promise.resolve();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    try {
      for (let step = this.pull(); !step.done; step = this.pull()) {
        yield step.value;
      }
    } finally {
      await this.close();
    }
  }
}
