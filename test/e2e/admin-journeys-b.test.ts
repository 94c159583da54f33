import type { Browser, Page } from 'playwright-core';
import { startLedgerwise, type LedgerwiseProcess } from '../harness/ledgerwise-process';
import { launchChromium, startJourney, type Journey } from './browser';
import { adminSwitchInto, eventually, openFromSidebar, signIn } from './journey-steps';

/**
 * Issue 20, admin area part B, done means: a platform admin goes through partners, sellers,
 * integrations, users, recipients, tasks and the devops queues and database pages, doing each page's
 * key actions (add a partner and meet the duplicate name, filter sellers, toggle Active and delete
 * with the typed word, deactivate and delete a recipient, trigger a task, see a real Temporal task
 * queue with the worker polling it, clear a queue), each screen photographed and checked by
 * axe-core; a company admin who is no platform admin is sent away from every one of these pages.
 * Runs `ledgerwise all` like the other journeys; screenshots in test-results/e2e/<journey>/.
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
const adminBPaths = [
  '/admin/partners',
  '/admin/sellers',
  '/admin/integrations',
  '/admin/users',
  '/admin/recipients',
  '/admin/tasks',
  '/devops/queues',
  '/devops/database',
];

const journey = (name: string) => {
  const j = startJourney(browser, { name: `admin-b-${name}`, base: app.base });
  journeys.push(j);
  return j;
};

/** Waits for the dialogs' fade to end: mid-transition colours would fail axe-core's contrast check. */
const settled = (page: Page) =>
  page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));

/** A JSON call with the session's CSRF token, as the app's own client makes it. */
const call = (page: Page, method: string, path: string, body?: unknown) =>
  page.evaluate(
    async ({ method, path, body }) => {
      const { csrfToken } = (await (await fetch('/api/auth/token')).json()) as { csrfToken: string };
      const response = await fetch(path, {
        method,
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    },
    { method, path, body },
  );

describe('admin area B in a real browser', () => {
  it('a platform admin works through partners, sellers, integrations, users, recipients, tasks and devops', async () => {
    const j = journey('platform-admin');
    const page = await j.person();
    const shoot = async (label: string) => {
      await settled(page);
      await j.shoot(page, label);
    };
    await signIn(page, { email: adminUser, password: app.config.SEED_ADMIN_PASSWORD });
    await page.waitForURL('**/admin/overview');

    // Set-up no page of this journey makes: a report recipient of the Demo Client's DEMO seller.
    await adminSwitchInto(page, 'Demo Client');
    const demoTenantId = (await call(page, 'GET', '/api/auth/self')).body as { tenant?: { Id: number } };
    let sellerId = 0;
    await eventually(
      () => call(page, 'GET', '/api/sellers?Active=true'),
      (answer) => {
        const rows = (answer.body as { rows: { Id: number; Provider: string }[] }).rows;
        sellerId = rows.find((row) => row.Provider === 'DEMO')?.Id ?? 0;
        expect(sellerId).toBeGreaterThan(0);
      },
      120_000,
    );
    const recipientEmail = `journey-recipient-${Date.now().toString(36)}@example.test`;
    const added = await call(page, 'POST', '/api/subscriptions', {
      email: recipientEmail,
      name: 'Journey Recipient',
      sellerId,
      SendWeekly: true,
    });
    expect(added.status).toBe(200);
    const tenantId = demoTenantId.tenant?.Id ?? 0;
    expect(tenantId).toBeGreaterThan(0);

    // Partners: add one, then meet the form's duplicate-name text.
    await openFromSidebar(page, 'Admin Partners');
    await page.getByRole('heading', { name: 'Partners', level: 1 }).waitFor();
    const partnerName = `Journey Partner ${Date.now().toString(36)}`;
    for (const attempt of ['first', 'duplicate'] as const) {
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      const form = page.getByRole('dialog', { name: 'Add Partner' });
      await form.getByLabel('Name').fill(partnerName);
      await form.getByLabel('Tenant Id').fill(String(tenantId));
      await form.getByLabel('Logo URL').fill('https://example.test/logo.png');
      if (attempt === 'first') {
        await shoot('partner-form');
        await form.getByRole('button', { name: 'Save' }).click();
        await page.getByText('Successfully added the partner.').waitFor();
      } else {
        await form.getByRole('button', { name: 'Save' }).click();
        await form.getByText('Name already exists within Tenant').waitFor();
        await shoot('partner-name-taken');
        await form.getByRole('button', { name: 'Cancel' }).click();
      }
    }
    await page.getByLabel('Search', { exact: true }).fill(partnerName);
    await page.getByRole('table', { name: 'Partners' }).getByText(partnerName).waitFor();
    await shoot('partners');

    // Sellers: the provider filter, the summary, then Active off, the typed delete.
    await openFromSidebar(page, 'Admin Sellers');
    await page.getByRole('heading', { name: 'Sellers', level: 1 }).waitFor();
    const sellers = page.getByRole('table', { name: 'Sellers' });
    await page.getByLabel('Provider').selectOption('DEMO');
    await eventually(
      () => page.getByTestId('sellers-summary').innerText(),
      (text) => expect(text).toMatch(/^Total: \d+, Filtered: [1-9]\d*$/),
    );
    await page.getByLabel('Provider').selectOption('XERO');
    await eventually(
      () => page.getByTestId('sellers-summary').innerText(),
      (text) => expect(text).toMatch(/Filtered: 0$/),
    );
    await page.getByLabel('Provider').selectOption('DEMO');
    const demoRow = sellers.getByRole('row').filter({ hasText: 'Demo Client' }).first();
    await demoRow.waitFor();
    await demoRow.getByRole('checkbox', { name: /^Select / }).check();
    await page.getByTestId('sellers-selected').getByText('1 selected').waitFor();
    await shoot('sellers-filtered-selected');
    await demoRow.getByRole('button', { name: /^Edit / }).click();
    const edit = page.getByRole('dialog', { name: /^Update Seller/ });
    await edit.getByRole('textbox', { name: 'Excluded customer ids' }).fill('12, 12, 15');
    await edit.getByRole('button', { name: 'Add to Excluded customer ids' }).click();
    await edit.getByRole('list', { name: 'Excluded customer ids added' }).getByText('15').waitFor();
    await edit.getByRole('textbox', { name: 'Excluded customer ids' }).fill('abc');
    await edit.getByRole('button', { name: 'Add to Excluded customer ids' }).click();
    await edit.getByText('Only whole numbers (customer or product ids) can be added.').waitFor();
    await shoot('seller-edit-flags');
    await edit.getByRole('button', { name: 'Cancel' }).click();

    // The recipients page before the seller goes: deactivate, then delete after confirmation.
    await openFromSidebar(page, 'Admin Recipients');
    await page.getByRole('heading', { name: 'Recipients', level: 1 }).waitFor();
    await page.getByLabel('Search', { exact: true }).fill(recipientEmail);
    const recipients = page.getByRole('table', { name: 'Recipients' });
    const recipientRow = recipients.getByRole('row').filter({ hasText: recipientEmail });
    await recipientRow.getByText('ACTIVE', { exact: true }).waitFor();
    await recipientRow.getByRole('button', { name: 'Deactivate Journey Recipient' }).click();
    await recipientRow.getByText('INACTIVE', { exact: true }).waitFor();
    await recipientRow.getByRole('button', { name: 'Activate Journey Recipient' }).waitFor();
    await shoot('recipient-deactivated');
    await recipientRow.getByRole('button', { name: 'Delete Journey Recipient' }).click();
    const confirmDelete = page.getByRole('alertdialog', { name: 'Delete Subscription' });
    await confirmDelete.getByText("Are you sure? You won't be able to revert this.").waitFor();
    await shoot('recipient-delete-confirm');
    await confirmDelete.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Journey Recipient was deleted.').waitFor();

    // Integrations: the table with its filters (no account is connected in this run).
    await openFromSidebar(page, 'Admin Integrations');
    await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
    await page.getByLabel('Provider').selectOption('HUBSPOT');
    await page.getByLabel('Product').selectOption('REVOPS');
    await page
      .getByRole('table', { name: 'Integrations' })
      .getByText('No accounts match the search and filters.')
      .waitFor();
    await shoot('integrations-filtered');

    // Users: search, the client-users table of a user, Reset Auth cancelled.
    await openFromSidebar(page, 'Admin Users');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByLabel('Search users').fill(companyAdmin);
    const users = page.getByRole('table', { name: 'Users' });
    const demoUserRow = users.getByRole('row').filter({ hasText: companyAdmin }).first();
    await demoUserRow.waitFor();
    await demoUserRow.getByRole('button', { name: /^Tenants of / }).click();
    await page
      .getByRole('table', { name: /^Tenants of / })
      .getByText('Demo Client')
      .waitFor();
    await shoot('users-expanded');
    await demoUserRow.getByRole('button', { name: /^Reset Auth of / }).click();
    const reset = page.getByRole('alertdialog', { name: /^Reset Auth of / });
    await reset.getByLabel('Type reset to confirm').fill('rese');
    await expect(reset.getByRole('button', { name: 'Reset Auth' }).isDisabled()).resolves.toBe(true);
    await shoot('user-reset-typed');
    await reset.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Cancelling reset auth request!').waitFor();
    await page.getByLabel('Search users').fill('nobody-at-all@example.test');
    await users.getByText('No Users Found').waitFor();

    // Tasks: Update Demo Seller, and the trigger's form from GET /api/cron/{name}.
    await openFromSidebar(page, 'Admin Tasks');
    await page.getByRole('heading', { name: 'Tasks', level: 1 }).waitFor();
    await page.getByRole('form', { name: 'Move Customer' }).getByRole('button', { name: 'Clean' }).click();
    await page.getByText('Enter a customer id.').waitFor();
    await page
      .getByRole('form', { name: 'Update Demo Seller' })
      .getByRole('button', { name: 'Trigger Update' })
      .click();
    await page.getByText(/^Jobs created\.\.\. \(\d+\)$/).waitFor();
    await page.getByLabel('Task', { exact: true }).selectOption('moveIndirectCustomer');
    await page.getByRole('form', { name: 'Trigger a task' }).getByLabel('customerId').waitFor();
    await shoot('tasks');

    // Devops queues: the worker's real Temporal task queues, polled; a clear cancelled, then one done.
    await openFromSidebar(page, 'Work Queues');
    await page.getByRole('heading', { name: 'Work Queues', level: 1 }).waitFor();
    const temporalQueues = page.getByRole('table', { name: 'Temporal task queues' });
    const syncQueue = `${app.config.TEMPORAL_TASK_QUEUE_PREFIX}-sync`;
    const syncRow = temporalQueues.getByRole('row').filter({ hasText: syncQueue });
    // The worker of `ledgerwise all` polls the sync queue: its pollers count is above zero.
    await eventually(
      () => syncRow.getByRole('cell').nth(4).innerText(),
      (pollers) => expect(Number(pollers)).toBeGreaterThan(0),
      60_000,
    );
    await page.getByText('Polling every 5 seconds').waitFor();
    await shoot('work-queues');
    await page.getByRole('button', { name: 'Details of the sync queue' }).click();
    await page.getByText('Polling paused while a row is open.').waitFor();
    await page.getByRole('table', { name: 'Job queues' }).getByText(syncQueue).waitFor();
    await shoot('work-queue-expanded');
    await page.getByRole('button', { name: 'Clear Waiting of the task queue' }).click();
    const clearDialog = page.getByRole('alertdialog', { name: /^Clear Waiting: task/ });
    await clearDialog.getByLabel('Type clear to confirm').waitFor();
    await clearDialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Cancelling clear queue request!').waitFor();
    await page.getByRole('button', { name: 'Clear Failed of the sync queue' }).click();
    const clearFailed = page.getByRole('alertdialog', { name: /^Clear Failed: sync/ });
    await clearFailed.getByLabel('Type clear to confirm').fill('clear');
    await shoot('clear-typed');
    await clearFailed.getByRole('button', { name: 'Clear' }).click();
    await page.getByText(/^Cleared \d+ failed sync jobs\.$/).waitFor();

    // Devops database: the read store's collections with counts and fields.
    await openFromSidebar(page, 'Database');
    await page.getByRole('heading', { name: 'Database', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Collections' }).getByText('workflowId').first().waitFor();
    await shoot('database');

    // Last, as it removes the seller: Active off, then delete only with the typed word.
    await openFromSidebar(page, 'Admin Sellers');
    await page.getByLabel('Provider').selectOption('DEMO');
    // Every seller, active or not: the table opens on the active ones only.
    await page.getByRole('combobox', { name: 'Active', exact: true }).selectOption('');
    const row = page
      .getByRole('table', { name: 'Sellers' })
      .getByRole('row')
      .filter({ hasText: 'Demo Client' })
      .first();
    await row.getByRole('switch', { name: /^Active: / }).click();
    await eventually(
      () => row.getByRole('switch', { name: /^Active: / }).isChecked(),
      (checked) => expect(checked).toBe(false),
    );
    await row.getByRole('button', { name: /^Delete / }).click();
    const deleteDialog = page.getByRole('alertdialog', { name: /^Delete / });
    await deleteDialog.getByLabel('Type delete to confirm').fill('delet');
    await expect(deleteDialog.getByRole('button', { name: 'Delete' }).isDisabled()).resolves.toBe(true);
    await deleteDialog.getByLabel('Type delete to confirm').fill('delete');
    await shoot('seller-delete-typed');
    await deleteDialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText(/ was deleted\.$/).waitFor();
    await shoot('seller-deleted');
  });

  it('a company admin who is no platform admin is sent away from every admin B page', async () => {
    const j = journey('not-platform-admin');
    const page = await j.person();
    await signIn(page, { email: companyAdmin, password: app.config.SEED_ADMIN_PASSWORD });
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    for (const path of adminBPaths) {
      await page.goto(path);
      await page.waitForURL('**/overview');
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    }
    await j.shoot(page, 'sent-to-dashboard');
    // The API refuses them too.
    for (const path of [
      '/api/devops/queues',
      '/api/devops/database',
      '/api/partners',
      '/api/cron/update_demo_seller',
    ])
      expect([403, 404]).toContain((await call(page, 'GET', path)).status);
  });
});
