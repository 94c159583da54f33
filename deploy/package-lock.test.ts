import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type LockEntry = { optionalDependencies?: Record<string, string> };
type Lock = { packages: Record<string, LockEntry> };

/**
 * `npm ci` installs exactly what the lock file lists and fails when a dependency's optional package is
 * missing from it; a lock written on one platform by an older npm dropped the other platforms' binaries
 * of @swc/core and @unrs/resolver (npm/cli#4828), so installs on a fresh clone failed.
 */
describe('package-lock.json', () => {
  const lock = JSON.parse(readFileSync(join(__dirname, '..', 'package-lock.json'), 'utf8')) as Lock;

  /** Where Node would find `name` from the package at `path`: its own node_modules, then each parent's. */
  const resolvable = (path: string, name: string): boolean => {
    let base = path;
    for (;;) {
      if (lock.packages[`${base ? `${base}/` : ''}node_modules/${name}`]) return true;
      const cut = base.lastIndexOf('/node_modules/');
      if (base === '') return false;
      base = cut === -1 ? '' : base.slice(0, cut);
    }
  };

  it('lists every optional dependency of every package, for every platform', () => {
    const missing = Object.entries(lock.packages).flatMap(([path, entry]) =>
      Object.keys(entry.optionalDependencies ?? {})
        .filter((name) => !resolvable(path, name))
        .map((name) => `${path || '(root)'} -> ${name}`),
    );
    expect(missing).toEqual([]);
  });
});
