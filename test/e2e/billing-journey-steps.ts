import type { Page } from 'playwright-core';
import type { Journey } from './browser';
import {
  answerWelcome,
  emailedLink,
  openFromSidebar,
  registerThroughForm,
  uniqueEmail,
} from './journey-steps';
import type { Config } from '../../contracts/config';

/**
 * Issue 18, done means: a new company sees its trial, opens a gated connector, changes plan, is sent
 * to the billing portal, cancels with a reason and sees the end date; a platform admin edits the
 * subscription's products. Run from portal-journeys.test.ts, which starts the product once.
 */
export const billingJourney = async (
  j: Journey,
  config: Pick<Config, 'MAILDEV_URL'>,
  admin: { email: string; password: string },
  signIn: (page: Page, credentials: { email: string; password: string }) => Promise<void>,
): Promise<void> => {
  const company = `Difference Engines ${Date.now().toString(36)}`;
  const page = await j.person();
  const email = uniqueEmail('billing');
  await registerThroughForm(page, { givenName: 'Charles', familyName: 'Babbage', email });
  await page.goto(await emailedLink(config, { to: email, subject: /Confirm your email/ }));
  await page.getByRole('link', { name: 'Go to the dashboard' }).click();
  await answerWelcome(page, { name: company, industry: 'Bakeries', use: 'Managing my company' });

  // The trial of the default plan, and a plan-gated connector open in it.
  await openFromSidebar(page, 'Settings');
  const billing = page.getByRole('heading', { name: 'Billing and subscription' }).locator('..');
  await billing.getByText(/\d+ trial days left/).waitFor();
  await j.shoot(page, 'billing-trial');
  await openFromSidebar(page, 'Platforms');
  await page.getByRole('button', { name: 'Connect Sage Intacct' }).click();
  const sage = page.getByRole('dialog', { name: 'Connect to Sage' });
  await sage.getByLabel('Company ID').waitFor();
  await j.shoot(page, 'gated-connector-open');
  await sage.getByRole('button', { name: 'Cancel' }).click();

  // A plan without the connector: the card now says how to get it.
  await openFromSidebar(page, 'Settings');
  const planForm = page.getByRole('form', { name: 'Change plan' });
  await planForm.getByLabel('Plan').selectOption({ label: 'Free' });
  await planForm.getByRole('button', { name: 'Change plan' }).click();
  await page.getByText('Your plan is now Free.').waitFor();
  await openFromSidebar(page, 'Platforms');
  await page.getByText('Upgrade plan to access').first().waitFor();
  await j.shoot(page, 'gated-after-plan-change');
  await openFromSidebar(page, 'Settings');
  await planForm.getByLabel('Plan').selectOption({ label: 'Growth' });
  await planForm.getByRole('button', { name: 'Change plan' }).click();
  await page.getByText('Your plan is now Growth.').waitFor();

  // The billing portal: the browser leaves for the provider's address (stood in for here: no internet).
  let portalUrl = '';
  await page.context().route(
    (url) => !['127.0.0.1', 'localhost'].includes(url.hostname),
    (route) => {
      portalUrl = route.request().url();
      return route.fulfill({ contentType: 'text/html', body: '<h1>Billing portal</h1>' });
    },
  );
  await page.getByRole('button', { name: 'Manage billing' }).click();
  await page.getByRole('heading', { name: 'Billing portal' }).waitFor();
  if (!/^https:\/\//.test(portalUrl)) throw new Error(`Sent to ${portalUrl || 'nowhere'}, not the portal`);
  await page.goBack();

  // Cancel with a reason; the end of the trial is when it takes effect.
  await page.getByRole('button', { name: 'Cancel or downgrade' }).click();
  const modal = page.getByRole('dialog', { name: 'Cancel or downgrade' });
  await modal.getByLabel('Why?').selectOption('OTHER');
  await modal.getByLabel('Details').fill('Moving our receivables in house');
  await modal.getByLabel('I understand, and I want to go ahead').check();
  await modal.getByRole('button', { name: 'Confirm' }).click();
  // The end of the 14-day trial, as the section states it (the success notice says it too).
  await page
    .locator('p[role="status"]')
    .filter({ hasText: /^Your subscription ends on \w+ \d+, \d{4}\.$/ })
    .waitFor();
  await j.shoot(page, 'cancelled');

  // A platform admin adds a product to the company's subscription.
  const operator = await j.person();
  await signIn(operator, admin);
  await operator.waitForURL(/\/admin\/overview/);
  await operator.goto(`/admin/subscriptions?filter=${encodeURIComponent(company)}`);
  const table = operator.getByRole('table', { name: 'Subscriptions' });
  await table.getByRole('row', { name: new RegExp(company) }).waitFor();
  await operator.getByRole('button', { name: `Edit subscription of ${company}` }).click();
  const form = operator.getByRole('form', { name: 'Edit subscription' });
  await form
    .getByLabel('Add a product')
    .selectOption({ label: 'Quickstart client pack (plans/business/client_nurturing/packaged)' });
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await form.getByText('New').waitFor();
  await j.shoot(operator, 'admin-edit-subscription');
  await form.getByRole('button', { name: 'Save' }).click();
  await operator.getByText(`Updated the subscription of ${company}.`).waitFor();
  await operator.getByRole('button', { name: `Edit subscription of ${company}` }).click();
  // Reopened from the refreshed list: the pack is a stored row now, no longer marked new.
  await form.getByText('plans/business/client_nurturing/packaged', { exact: true }).waitFor();
  if ((await form.getByText('New', { exact: true }).count()) > 0) throw new Error('The pack was not saved');
};
