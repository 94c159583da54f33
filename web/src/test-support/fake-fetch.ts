/** A scripted `fetch` for component and client tests: answers by method and path, records every call. */

export type FakeAnswer = {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
};

export type RecordedCall = {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
};

type Handler = FakeAnswer | ((call: RecordedCall) => FakeAnswer) | Error;

const statusTexts: Record<number, string> = {
  200: 'OK',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

const responseOf = (answer: FakeAnswer): Response => {
  const status = answer.status ?? 200;
  const text =
    answer.body === undefined
      ? ''
      : typeof answer.body === 'string'
        ? answer.body
        : JSON.stringify(answer.body);
  const headers = new Map(Object.entries(answer.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: statusTexts[status] ?? '',
    headers: { get: (name: string) => headers.get(name.toLowerCase()) ?? null },
    text: () => Promise.resolve(text),
  } as unknown as Response;
};

export class FakeFetch {
  readonly calls: RecordedCall[] = [];
  private readonly routes = new Map<string, Handler[]>();

  /** Queue answers for `GET /api/x`; the last one repeats. Query strings are ignored when matching. */
  on(route: string, ...answers: Handler[]): this {
    this.routes.set(route, answers);
    return this;
  }

  callsTo(route: string): RecordedCall[] {
    return this.calls.filter((call) => `${call.method} ${call.url.split('?')[0]}` === route);
  }

  readonly fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = input instanceof URL ? input.href : typeof input === 'string' ? input : input.url;
    const method = init?.method ?? 'GET';
    const call: RecordedCall = {
      method,
      url,
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      credentials: init?.credentials,
    };
    this.calls.push(call);
    const key = `${method} ${url.split('?')[0]}`;
    const queue = this.routes.get(key);
    if (!queue?.length)
      return Promise.resolve(responseOf({ status: 404, body: { message: 'Not Found', code: 'not_found' } }));
    const handler = queue.length > 1 ? queue.shift()! : queue[0]!;
    if (handler instanceof Error) return Promise.reject(handler);
    return Promise.resolve(responseOf(typeof handler === 'function' ? handler(call) : handler));
  };
}
