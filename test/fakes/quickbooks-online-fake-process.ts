/**
 * The QuickBooks Online fake in a process of its own, serving one company computed by index, with
 * the rate limit lifted: the sync benchmark runs it beside the worker so the fake's own JSON work
 * does not block the worker's event loop. Usage:
 *   node --import tsx quickbooks-online-fake-process.ts <invoices> <customers> <items> <creditMemos>
 * It writes one JSON line: the configuration values, the realm and its tokens.
 */
import { generatedCompany, startQuickBooksOnlineFake } from './quickbooks-online-fake';

const main = async () => {
  const [invoices = 1000, customers = 100, items = 50, creditMemos = 0] = process.argv.slice(2).map(Number);
  const fake = await startQuickBooksOnlineFake();
  fake.setRateLimit(null);
  const realmId = '9341453050';
  fake.addCompany(generatedCompany(realmId, { invoices, customers, items, creditMemos }));
  const tokens = fake.issueTokens(realmId, 24 * 3600);
  process.stdout.write(`${JSON.stringify({ configValues: fake.configValues, realmId, tokens })}\n`);
  process.on('SIGTERM', () => {
    process.stdout.write(`${JSON.stringify({ requests: fake.requests.length })}\n`);
    void fake.close().then(() => process.exit(0));
  });
};

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
