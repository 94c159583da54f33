/**
 * The ways one API path can be written on the request line (issue 12, point 1): a router that decodes,
 * folds case, merges slashes, resolves dot segments, ignores a trailing slash or accepts an absolute
 * URL may match the route while a check that reads the raw URL sees something else. Each spelling
 * must be refused exactly like the plain one, or not reach the route at all.
 */
export type Spelling = {
  name: string;
  target: string;
  /**
   * The list, tried by every attacker; the others are variants of them, tried by the caller
   * with no cookie at all (the attacker), to keep the run short on two cores.
   */
  core: boolean;
};

/** Percent-encodes the first letter of a segment (`sellers` to `%73ellers`). */
const encodeFirst = (segment: string) =>
  segment.length === 0 ? segment : `%${segment.charCodeAt(0).toString(16)}${segment.slice(1)}`;

/**
 * Every spelling of `url` (a path under /api/ with its query) as a request target; `origin` is the
 * gateway's own (`http://127.0.0.1:port`) for the absolute forms.
 */
export const spellingsOf = (url: string, origin: string): Spelling[] => {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : url.slice(queryAt);
  if (!path.startsWith('/api/')) throw new Error(`not an API path: ${url}`);
  const rest = path.slice('/api'.length); // "/sellers/12"
  const segments = rest.slice(1).split('/');
  const first = segments[0] ?? '';
  const spell = (name: string, target: string, core = true): Spelling => ({
    name,
    target: `${target}${query}`,
    core,
  });
  return [
    spell('as registered', path),
    spell('encoded letter (/%61pi/)', `/%61pi${rest}`),
    spell('encoded prefix (/%61%70%69/)', `/%61%70%69${rest}`, false),
    spell('upper-case hex (/%41PI/)', `/%41PI${rest}`, false),
    spell('encoded letter after /api/', `/api/${[encodeFirst(first), ...segments.slice(1)].join('/')}`),
    spell('double-encoded letter (/%2561pi/)', `/%2561pi${rest}`, false),
    spell('encoded slash (/api%2F...)', `/api%2F${rest.slice(1)}`),
    spell('encoded slashes throughout', `/api${rest.replaceAll('/', '%2F')}`, false),
    spell('double slash in front (//api/)', `//api${rest}`),
    spell('double slash inside (/api//)', `/api/${rest}`),
    spell('upper case (/API/)', `/API${rest}`),
    spell('mixed case (/Api/)', `/Api${rest}`),
    spell('dot segment (/api/./)', `/api/.${rest}`),
    spell('dot-dot segment (/api/x/../x)', `/api/${first}/..${rest}`),
    spell('dot-dot from outside (/x/../api/)', `/x/..${path}`, false),
    spell('encoded dot segment (/api/%2e/)', `/api/%2e${rest}`, false),
    spell('trailing slash', `${path}/`),
    spell('semicolon parameter (/api;x/)', `/api;x${rest}`, false),
    spell('absolute form', `${origin}${path}`),
    spell('absolute form, another host', `http://attacker.example${path}`, false),
    spell('absolute form, encoded letter', `${origin}/%61pi${rest}`, false),
  ];
};
