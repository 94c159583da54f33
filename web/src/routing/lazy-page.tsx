import { lazy, type ComponentType } from 'react';

const loaders: (() => Promise<unknown>)[] = [];

/**
 * A page that loads its own chunk the first time it is shown, so the login page does not carry the
 * dashboard and its libraries. React.lazy wants a default export; the pages export by name, so the
 * loader picks one: `lazyPage(() => import('./login-page').then((page) => page.LoginPage))`.
 */
export const lazyPage = <Props extends object>(load: () => Promise<ComponentType<Props>>) => {
  loaders.push(load);
  return lazy(async () => ({ default: await load() }));
};

/**
 * Loads every page's code now. Component tests call it once before rendering, so a test's time
 * limits measure the page and not the first compile of its modules.
 */
export const preloadPages = async (): Promise<void> => {
  await Promise.all(loaders.map((load) => load()));
};

/** What shows while the session or a page's chunk loads: announced, and the same everywhere. */
export const LoadingStatus = () => (
  <p role="status" className="p-6 text-sm text-gray-600">
    Loading...
  </p>
);
