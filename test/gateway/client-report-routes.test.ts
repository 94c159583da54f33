import { FileContent } from '../../contracts/api/reports';
import { Tenant } from '../../contracts/api/tenants';
import { ErrorResponse } from '../../contracts/errors';
import { stopPdfProcess } from '../../workflows/reports/pdf/pdf-renderer';
import { flat, readPdf } from '../reports/pdf-text';
import { sellerOf } from './admin-fixtures';
import { companyFor, platformAdmin } from './fixtures';
import { useGatewayWorld } from './gateway-world';
import { person } from './team-fixtures';

/**
 * The advisors' Client Performance Summary over HTTP: a firm's and an advisor's, downloaded as
 * FileContent and read back; other advisors and firms get nothing.
 */
const world = useGatewayWorld(__filename);
afterAll(() => stopPdfProcess());

let count = 0;
let admin: ReturnType<typeof platformAdmin> | undefined;
/** A firm with a partner (given by a platform admin), its advisor, and clients added by the advisor. */
const firmWithClients = async (clients: { name: string; platform: boolean }[]) => {
  count += 1;
  const advisor = await person(world, {
    name: `clientreport${count}`,
    givenName: 'Ada',
    familyName: `Reporter${count}`,
  });
  const firmId = await companyFor(world, advisor, { name: `Report Firm ${count}`, classification: 'FIRM' });
  // The world's one platform administrator address: signed up once.
  const { browser: adminBrowser } = await (admin ??= platformAdmin(world));
  const partner = await adminBrowser.post('/api/partners', {
    Name: `Report Partner ${world.runId} ${count}`,
    ClientPlanIdentifier: 'free_client',
    TenantId: firmId,
  });
  expect(partner.statusCode).toBe(200);
  for (const client of clients) {
    const created = await advisor.browser.post('/api/tenants', {
      Name: client.name,
      Industry: { FreeForm: 'Retail' },
      BusinessModel: 'B2B',
    });
    expect(created.statusCode).toBe(201);
    if (client.platform)
      await sellerOf(world, Tenant.parse(created.json()).Id, { companyName: `${client.name} Books` });
  }
  return { advisor, firmId, admin: adminBrowser };
};

const pdfText = async (response: { statusCode: number; body: string; json: <T>() => T }) => {
  expect([response.statusCode, response.statusCode === 200 ? '' : response.body]).toEqual([200, '']);
  const file = FileContent.parse(response.json());
  expect(file.contentType).toBe('application/pdf');
  return { file, text: flat((await readPdf(Buffer.from(file.data, 'base64'))).text) };
};

it("gives an advisor the summary of their clients with a platform, and the firm's the same", async () => {
  const { advisor, firmId } = await firmWithClients([
    { name: 'Juniper Goods', platform: true },
    { name: 'Willow Crafts', platform: true },
    { name: 'Idle Holdings', platform: false },
  ]);
  const mine = await pdfText(
    await advisor.browser.get(`/api/users/${advisor.session.user.Id}/reports/client?format=pdf`),
  );
  expect(mine.file.fileName).toMatch(
    /^Ada Reporter\d+ - Client Performance Summary - \d{4}-\d{2}-\d{2}\.pdf$/,
  );
  expect(mine.text).toContain(`Prepared for Ada Reporter${count}: 2 clients`);
  for (const name of ['Juniper Goods Books', 'Willow Crafts Books']) expect(mine.text).toContain(name);
  expect(mine.text).not.toContain('Idle Holdings');
  expect(mine.text).not.toContain(`Report Firm ${count}`.concat(' Books'));

  const firms = await pdfText(await advisor.browser.get(`/api/tenants/${firmId}/reports/client`));
  expect(firms.file.fileName).toMatch(new RegExp(`^Report Firm ${count} - Client Performance Summary`));
  expect(firms.text).toContain('Juniper Goods Books');

  const sheet = await advisor.browser.get(`/api/users/${advisor.session.user.Id}/reports/client?format=xlsx`);
  expect(FileContent.parse(sheet.json())).toMatchObject({
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    fileName: expect.stringMatching(/\.xlsx$/) as string,
  });
}, 120_000);

it("keeps other advisors out of a firm's and an advisor's summary; a platform admin may read both", async () => {
  const first = await firmWithClients([{ name: 'Aspen Tools', platform: true }]);
  const second = await firmWithClients([{ name: 'Birch Tools', platform: true }]);
  const theirs = await second.advisor.browser.get(
    `/api/users/${first.advisor.session.user.Id}/reports/client`,
  );
  expect(theirs.statusCode).toBe(404);
  const theirFirm = await second.advisor.browser.get(`/api/tenants/${first.firmId}/reports/client`);
  expect(theirFirm.statusCode).toBe(404);
  const admin = await pdfText(
    await second.admin.get(`/api/users/${first.advisor.session.user.Id}/reports/client`),
  );
  expect(admin.text).toContain('Aspen Tools Books');
  expect(admin.text).not.toContain('Birch Tools');
}, 120_000);

it('answers 409 with the reason when no client has a platform yet', async () => {
  const { advisor } = await firmWithClients([{ name: 'Quiet Client', platform: false }]);
  const response = await advisor.browser.get(`/api/users/${advisor.session.user.Id}/reports/client`);
  expect(response.statusCode).toBe(409);
  expect(ErrorResponse.parse(response.json()).message).toBe(
    'There are no clients with a connected platform to report on.',
  );
}, 120_000);
