import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * A real Chromium (Debian's package, which scripts/setup.sh installs) driven by playwright-core, and the
 * screenshots each journey keeps under test-results/e2e/<journey>/ as artifacts a reviewer can look at.
 */
const chromiumPath = (): string => {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((path): path is string => Boolean(path && existsSync(path)));
  if (!found)
    throw new Error(
      'Chromium is not installed: run `bash scripts/setup.sh` (it installs the chromium package)',
    );
  return found;
};

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: chromiumPath(),
    // Root in CI containers: Chromium's sandbox needs user namespaces the container may not give.
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });

export type Journey = {
  /** A fresh browser profile (own cookies), as a second person on another machine would have. */
  person: (options?: { width?: number }) => Promise<Page>;
  /** Saves a full-page screenshot as test-results/e2e/<journey>/<nn>-<label>.png. */
  shoot: (page: Page, label: string) => Promise<void>;
  close: () => Promise<void>;
};

export const startJourney = (browser: Browser, options: { name: string; base: string }): Journey => {
  const folder = join(__dirname, '..', '..', 'test-results', 'e2e', options.name);
  // Only this run's screenshots: a reader should never mistake an older run's screen for this one.
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const contexts: BrowserContext[] = [];
  const pages: Page[] = [];
  let shot = 0;
  const shoot = async (page: Page, label: string) => {
    shot += 1;
    const file = `${String(shot).padStart(2, '0')}-${label}.png`;
    await page.screenshot({ path: join(folder, file), fullPage: true });
  };
  return {
    person: async ({ width = 1280 } = {}) => {
      const context = await browser.newContext({ baseURL: options.base, viewport: { width, height: 900 } });
      context.setDefaultTimeout(20_000);
      contexts.push(context);
      const page = await context.newPage();
      pages.push(page);
      return page;
    },
    shoot,
    close: async () => {
      // The last screen of each person: what a failed step was looking at.
      for (const [index, page] of pages.entries())
        await shoot(page, `last-screen-person-${index + 1}`).catch(() => undefined);
      await Promise.all(contexts.map((context) => context.close()));
    },
  };
};
