import type { Browser, Page } from 'playwright-core';
import { startLedgerwise, type LedgerwiseProcess } from '../harness/ledgerwise-process';
import { launchChromium, startJourney, type Journey } from './browser';
import { eventually, openFromSidebar, signIn } from './journey-steps';

/**
 * Issue 20, admin area part A, done means: a platform admin goes through the admin overview, the
 * tenants table (filter, expand, add, edit, disable with its typed word, restore), the tenant edit
 * page and the audit history with its stream replay, each screen photographed and checked by
 * axe-core; a company admin who is no platform admin is sent away from every one of them. Runs
 * `ledgerwise all` like the other journeys; screenshots in test-results/e2e/<journey>/.
 */
jest.setTimeout(600_000);

let app: LedgerwiseProcess;
let browser: Browser;
const journeys: Journey[] = [];

beforeAll(async () => {
  [app, browser] = await Promise.all([startLedgerwise(__filename), launchChromium()]);
});

afterEach(async () => {
  await Promise.all(journeys.splice(0).map((j) => j.close()));
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const adminUser = 'admin@ledgerwise.local';
const companyAdmin = 'demo@ledgerwise.local';

const journey = (name: string) => {
  const j = startJourney(browser, { name: `admin-a-${name}`, base: app.base });
  journeys.push(j);
  return j;
};

const tenantsTable = (page: Page) => page.getByRole('table', { name: 'Tenants' });

/**
 * Waits for the dialogs' fade to end: mid-transition colours are half-faded, which axe-core would
 * measure as too little contrast.
 */
const settled = (page: Page) =>
  page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));

/** The tenant row whose name link is `name`. */
const rowOf = (page: Page, name: string) =>
  tenantsTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name, exact: true }) });

describe('admin area A in a real browser', () => {
  it('a platform admin works through the overview, tenants, tenant edit and audit history', async () => {
    const j = journey('platform-admin');
    const page = await j.person();
    const shoot = async (label: string) => {
      await settled(page);
      await j.shoot(page, label);
    };
    await signIn(page, { email: adminUser, password: app.config.SEED_ADMIN_PASSWORD });
    await page.waitForURL('**/admin/overview');
    await page.getByRole('heading', { name: 'Admin Overview' }).waitFor();
    // The cards hold the platform's counts once GET /api/stats answered.
    await eventually(
      () => page.getByText('Sellers (active and inactive)').locator('..').innerText(),
      (text) => expect(text).toMatch(/\d+ \/ \d+/),
    );
    await shoot('admin-overview');

    // The tenants table, from the admin navigation.
    await openFromSidebar(page, 'Admin Tenants');
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
    await tenantsTable(page).getByRole('link', { name: 'Demo Client', exact: true }).waitFor();
    await shoot('tenants');
    // The wide table scrolls inside its card; the page itself never scrolls sideways.
    await page.waitForFunction(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth === 0,
    );

    // A new tenant through the Add modal, so the journey disables nobody's company.
    const name = `Journey Tenant ${Date.now().toString(36)}`;
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const add = page.getByRole('dialog', { name: 'New Tenant' });
    await add.getByLabel('Name').fill(name);
    await add.getByLabel('Usage type').selectOption('TEST');
    await add.getByLabel('Referrer').fill('journey');
    await shoot('new-tenant-modal');
    await add.getByRole('button', { name: 'Create' }).click();
    await page.getByText(`Created ${name}`).waitFor();

    // Search and filter: the server answers every match, without pages.
    await page.getByLabel('Search tenants').fill(name);
    await page.getByLabel('Usage type').selectOption('TEST');
    await page.getByLabel('Has users').selectOption('false');
    await rowOf(page, name).waitFor();
    await eventually(
      () => tenantsTable(page).getByRole('row').count(),
      (rows) => expect(rows).toBe(2),
    );
    await expect(page.getByRole('navigation', { name: 'Pages' }).count()).resolves.toBe(0);

    // Expand: a new tenant has neither users nor sellers.
    await page.getByRole('button', { name: `Users, sellers and linked tenants of ${name}` }).click();
    await page.getByText('This tenant has no users and no sellers.').waitFor();
    await shoot('tenants-filtered-and-expanded');

    // Edit in the modal: the platform admin's referrer, saved.
    await rowOf(page, name)
      .getByRole('button', { name: `Edit ${name}` })
      .click();
    const edit = page.getByRole('dialog', { name: 'Edit Tenant' });
    await edit.getByRole('tab', { name: 'Company' }).waitFor();
    await edit.getByLabel('Referrer', { exact: true }).fill('journey-edited');
    await edit.getByRole('button', { name: 'Save admin settings' }).click();
    await edit.getByText('Successfully updated the company.').waitFor();
    await shoot('edit-tenant-modal');
    await edit.getByRole('button', { name: 'Close' }).click();
    await rowOf(page, name).getByText('journey-edited').waitFor();

    // Disable only with the typed word, then restore.
    await rowOf(page, name)
      .getByRole('button', { name: `Disable ${name}` })
      .click();
    const disable = page.getByRole('dialog', { name: 'Disable Tenant' });
    await disable.getByLabel('Reason').selectOption('TESTING');
    await disable.getByLabel('Type disable to confirm').fill('disabl');
    await expect(disable.getByRole('button', { name: 'Disable' }).isDisabled()).resolves.toBe(true);
    await disable.getByLabel('Type disable to confirm').fill('disable');
    await shoot('disable-typed');
    await disable.getByRole('button', { name: 'Disable' }).click();
    await page.getByText(`${name}`).filter({ hasText: 'was disabled.' }).waitFor();
    await rowOf(page, name)
      .getByRole('button', { name: `Restore ${name}` })
      .waitFor();
    await rowOf(page, name)
      .getByRole('button', { name: `Purge ${name}` })
      .waitFor();
    await shoot('tenant-disabled');
    await rowOf(page, name)
      .getByRole('button', { name: `Restore ${name}` })
      .click();
    await page
      .getByRole('dialog', { name: 'Restore Tenant' })
      .getByRole('button', { name: 'Restore' })
      .click();
    await page.getByText(`${name}`).filter({ hasText: 'was restored.' }).waitFor();
    await rowOf(page, name)
      .getByRole('button', { name: `Disable ${name}` })
      .waitFor();

    // The edit page: vertical tabs Company, Reporting, Logo.
    await rowOf(page, name).getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { name: 'Edit Tenant' }).waitFor();
    const tenantPath = new URL(page.url()).pathname;
    expect(tenantPath).toMatch(/^\/admin\/tenants\/\d+$/);
    await page.getByRole('tablist', { name: 'Tenant settings' }).waitFor();
    await shoot('tenant-edit-company');
    await page.getByRole('tab', { name: 'Reporting' }).click();
    await page.getByRole('tabpanel').getByLabel('Currency').waitFor();
    await shoot('tenant-edit-reporting');
    await page.getByRole('tab', { name: 'Logo' }).click();
    await shoot('tenant-edit-logo');

    // The audit history, with the disable among its rows, and the stream replay.
    await page.getByRole('link', { name: 'Audit history' }).click();
    await page.waitForURL(`**${tenantPath}/audit`);
    const audit = page.getByRole('table', { name: 'Audit history' });
    await audit.getByRole('row').nth(1).waitFor();
    await eventually(
      () => audit.innerText(),
      (text) => expect(text).not.toContain('Loading...'),
    );
    // Newest first: the restore, then the disable (a DELETE, highlighted).
    await audit
      .getByRole('button', { name: /^Request details of / })
      .first()
      .click();
    await audit.getByText('Request id:').waitFor();
    await shoot('audit-history');
    await page.getByRole('button', { name: 'Replay' }).click();
    const events = page.getByRole('list', { name: /^Events of tenant-\d+$/ });
    const disabledStep = events.getByRole('listitem').filter({ hasText: 'TenantDisabled' });
    await disabledStep.getByText(/TenantDisabled/).click();
    await disabledStep.getByText('State after').waitFor();
    await shoot('stream-replay');

    // An unknown admin page is the 404 page.
    await page.goto('/admin/no-such-page');
    await page.getByRole('heading', { name: '404 Not Found' }).waitFor();
    await shoot('admin-not-found');
  });

  it('the admin pages of the other issues open from the navigation and pass axe-core', async () => {
    const j = journey('other-admin-pages');
    const page = await j.person();
    await signIn(page, { email: adminUser, password: app.config.SEED_ADMIN_PASSWORD });
    await page.waitForURL('**/admin/overview');
    // Billing (issue 18), collection (16), statistics and data sets (19): each from its sidebar link.
    for (const [link, heading] of [
      ['Collection', 'Collection'],
      ['Statistics', 'Statistics'],
      ['Data Sets', 'Data Sets'],
      ['Subscriptions', 'Subscriptions'],
      ['Plans', 'Plans'],
    ] as const) {
      await openFromSidebar(page, link);
      await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
      await page.getByText('Loading...').first().waitFor({ state: 'hidden' });
      await settled(page);
      await j.shoot(page, link.toLowerCase().replaceAll(' ', '-'));
    }
  });

  it('a company admin who is no platform admin is sent away from every admin page', async () => {
    const j = journey('not-platform-admin');
    const page = await j.person();
    await signIn(page, { email: companyAdmin, password: app.config.SEED_ADMIN_PASSWORD });
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await expect(
      page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: /^Admin/ })
        .count(),
    ).resolves.toBe(0);
    for (const path of [
      '/admin',
      '/admin/overview',
      '/admin/tenants',
      '/admin/tenants/1',
      '/admin/tenants/1/audit',
      '/admin/no-such-page',
      '/devops/queues',
    ]) {
      await page.goto(path);
      await page.waitForURL('**/overview');
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    }
    await j.shoot(page, 'sent-to-dashboard');

    // The portal leftover of this issue: complete registration, by provider or password.
    await page.goto('/complete-registration');
    await page.getByRole('heading', { name: 'Complete registration' }).waitFor();
    await page.getByRole('link', { name: 'Continue with Google' }).waitFor();
    await j.shoot(page, 'complete-registration');
  });

  it('a guest opening an admin page is asked to log in and comes back to it', async () => {
    const j = journey('guest');
    const page = await j.person();
    await page.goto('/admin/tenants');
    await page.waitForURL('**/login?returnTo=%2Fadmin%2Ftenants');
    await page.getByLabel('Email').fill(adminUser);
    await page.getByLabel('Password', { exact: true }).fill(app.config.SEED_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL('**/admin/tenants');
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
    await expect(page.title()).resolves.toBe('Ledgerwise - Admin Tenants');
    await j.checkAccessibility(page, 'tenants-after-login');
  });
});
