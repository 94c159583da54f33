import type { Page } from 'playwright-core';
import type { Config } from '../../contracts/config';
import { waitForEmail } from '../gateway/maildev';

/** Steps several journeys share, written as a user does them: through labels, roles and emailed links. */

export const journeyPassword = 'Analytical-Engine-1843';

let counter = 0;
/** An address of its own per run, since MailDev is shared by every test file. */
export const uniqueEmail = (who: string): string => {
  counter += 1;
  return `${who}-${Date.now().toString(36)}${counter}@e2e.example.com`;
};

/** The first link of the newest email to `to` whose subject matches. */
export const emailedLink = async (
  config: Pick<Config, 'MAILDEV_URL'>,
  query: { to: string; subject: RegExp },
): Promise<string> => {
  const email = await waitForEmail(config, query);
  // Links into the API, or the invitation page (whose token is in the fragment, never sent to a server).
  const link = email.links.find((href) => href.includes('/api/') || new URL(href).pathname === '/invitation');
  if (!link) throw new Error(`The email "${email.subject}" has no link into the app`);
  return link;
};

export const registerThroughForm = async (
  page: Page,
  person: { givenName: string; familyName: string; email: string },
): Promise<void> => {
  await page.goto('/register');
  await page.getByLabel('First name').fill(person.givenName);
  await page.getByLabel('Last name').fill(person.familyName);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(journeyPassword);
  await page.getByRole('button', { name: 'Register' }).click();
};

/** The welcome modal every new account answers before anything else. */
export const answerWelcome = async (
  page: Page,
  company: { name: string; industry: string; use: 'Advising my clients' | 'Managing my company' },
): Promise<void> => {
  const dialog = page.getByRole('dialog', { name: 'Welcome to Ledgerwise' });
  const heading = dialog.getByRole('heading', { name: 'Welcome to Ledgerwise' });
  await heading.waitFor();
  await dialog.getByLabel('Company name').fill(company.name);
  await dialog.getByLabel('Industry').fill(company.industry);
  await dialog.getByLabel('Business model').selectOption('B2B');
  await dialog.getByLabel(company.use).check();
  await dialog.getByRole('button', { name: "Let's go" }).click();
  await heading.waitFor({ state: 'hidden' });
};

export const signIn = async (page: Page, credentials: { email: string; password: string }): Promise<void> => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password', { exact: true }).fill(credentials.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
};

/** The main navigation, from the sidebar (wide screens) or the menu button (narrow ones). */
export const openFromSidebar = async (page: Page, link: string): Promise<void> => {
  const menuButton = page.getByRole('button', { name: 'Open menu' });
  if (await menuButton.isVisible()) await menuButton.click();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: link, exact: true })
    .locator('visible=true')
    .first()
    .click();
};

/**
 * Reads until the expectation holds, the way playwright's web-first assertions wait: the screen may
 * still be updating when a step begins. The last failed expectation is thrown after `timeoutMs`.
 */
export const eventually = async <T>(
  read: () => Promise<T>,
  expectation: (value: T) => void,
  timeoutMs = 20_000,
): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    try {
      expectation(value);
      return;
    } catch (failure) {
      if (Date.now() > deadline) throw failure;
    }
    // The interval between reads, not a wait for something to happen.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/** Waits for the document title the router sets after a page has loaded. */
export const titleBecomes = (page: Page, title: string) =>
  page.waitForFunction((expected) => document.title === expected, title);

/**
 * Every distinct text `read` returned while polling until `done` holds, in order: what a person
 * watching the screen would have seen change, with no reload in between.
 */
export const watchTexts = async (
  read: () => Promise<string>,
  options: { done: (text: string) => boolean; timeoutMs: number },
): Promise<string[]> => {
  const seen: string[] = [];
  const deadline = Date.now() + options.timeoutMs;
  while (Date.now() < deadline) {
    const text = await read().catch(() => '');
    if (text && seen.at(-1) !== text) seen.push(text);
    if (options.done(text)) return seen;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Still waiting after ${options.timeoutMs} ms; the screen showed: ${seen.join(' -> ')}`);
};

/**
 * Switches the signed-in platform admin into the named company with the call the admin area's tenants
 * table makes (POST /api/auth/switchTenant); that table belongs to the admin issue, not the portal.
 */
export const adminSwitchInto = async (page: Page, companyName: string): Promise<void> => {
  const failure = await page.evaluate(async (name) => {
    const { csrfToken } = (await (await fetch('/api/auth/token')).json()) as { csrfToken: string };
    const list = (await (
      await fetch(`/api/tenants?scope=all&search=${encodeURIComponent(name)}`)
    ).json()) as {
      rows: { Id: number; Name: string }[];
    };
    const tenant = list.rows.find((row) => row.Name === name);
    if (!tenant) return `no company named ${name}`;
    const response = await fetch('/api/auth/switchTenant', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
      body: JSON.stringify({ tenantId: tenant.Id }),
    });
    return response.ok ? null : `switchTenant answered ${response.status}`;
  }, companyName);
  if (failure) throw new Error(failure);
};
