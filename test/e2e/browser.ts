import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { axeFindings, describeFindings, pathOf } from './accessibility';

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
  /**
   * Saves a full-page screenshot as test-results/e2e/<journey>/<nn>-<label>.png, then checks the screen
   * with axe-core: a serious or critical violation fails the journey, each with its rule, help and target.
   */
  shoot: (page: Page, label: string) => Promise<void>;
  /** The axe-core check alone, for a screen not worth a picture. */
  checkAccessibility: (page: Page, label: string) => Promise<void>;
  /** The app's pages every person of this journey has been on, and those axe-core checked. */
  pages: () => { visited: string[]; checked: string[] };
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
  const visited = new Set<string>();
  const checked = new Set<string>();
  const checkAccessibility = async (page: Page, label: string) => {
    const findings = await axeFindings(page);
    checked.add(pathOf(page));
    if (findings.length > 0)
      throw new Error(
        `axe-core found serious or critical violations:\n${describeFindings(`${pathOf(page)} (${label})`, findings)}`,
      );
  };
  const shoot = async (page: Page, label: string) => {
    shot += 1;
    const file = `${String(shot).padStart(2, '0')}-${label}.png`;
    await page.screenshot({ path: join(folder, file), fullPage: true });
    await checkAccessibility(page, label);
  };
  return {
    person: async ({ width = 1280 } = {}) => {
      const context = await browser.newContext({ baseURL: options.base, viewport: { width, height: 900 } });
      context.setDefaultTimeout(20_000);
      contexts.push(context);
      const page = await context.newPage();
      // Every address the app's router reaches, redirects and history changes included.
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame() && !frame.url().startsWith('about:')) visited.add(pathOf(page));
      });
      pages.push(page);
      return page;
    },
    shoot,
    checkAccessibility,
    pages: () => ({ visited: [...visited], checked: [...checked] }),
    close: async () => {
      // The last screen of each person: what a failed step was looking at.
      for (const [index, page] of pages.entries()) {
        shot += 1;
        const file = `${String(shot).padStart(2, '0')}-last-screen-person-${index + 1}.png`;
        await page.screenshot({ path: join(folder, file), fullPage: true }).catch(() => undefined);
      }
      await Promise.all(contexts.map((context) => context.close()));
    },
  };
};
