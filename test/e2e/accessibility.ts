import axe from 'axe-core';
import type { Page } from 'playwright-core';

/**
 * axe-core run inside the journeys' browser: accessibility checked on the rendered pages, not hoped
 * for. Serious and critical violations fail the journey; minor and moderate ones are best practice
 * advice, left to review.
 */
export type AxeFinding = { rule: string; impact: string; help: string; targets: string[]; why: string[] };

const failingImpacts = new Set(['serious', 'critical']);

/** Injected through the DevTools protocol, which the app's content security policy does not govern. */
const injectAxe = async (page: Page): Promise<void> => {
  const present = await page.evaluate(() => 'axe' in window);
  if (!present) await page.evaluate(axe.source);
};

/** The serious and critical violations on the page as it is now (open dialogs included). */
export const axeFindings = async (page: Page): Promise<AxeFinding[]> => {
  await injectAxe(page);
  const violations = await page.evaluate(async () => {
    const results = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      resultTypes: ['violations'],
    });
    return results.violations.map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? 'unknown',
      help: `${violation.help} (${violation.helpUrl})`,
      targets: violation.nodes.map((node) => node.target.join(' ')),
      // axe's own account of each node, such as the contrast ratio and both colours it measured.
      why: violation.nodes.map((node) => (node.failureSummary ?? '').split('\n').slice(1).join(' ').trim()),
    }));
  });
  return violations.filter((finding) => failingImpacts.has(finding.impact));
};

/** One line per violation: the rule id, what it asks for, and where on the page it was found. */
export const describeFindings = (where: string, findings: readonly AxeFinding[]): string =>
  findings
    .map(
      (finding) =>
        `${where}: ${finding.rule} (${finding.impact}) ${finding.help}\n${finding.targets
          .map((target, index) => `    at ${target}: ${finding.why[index] ?? ''}`)
          .join('\n')}`,
    )
    .join('\n');

/** The path of the page, the screen a finding belongs to. */
export const pathOf = (page: Page): string => new URL(page.url()).pathname;
