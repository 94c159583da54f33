import { createMailer } from '../../workflows/email/smtp-mailer';
import { isolatedNames, testConfig } from '../harness/isolation';

const names = isolatedNames(__filename);
const config = testConfig(names);

type MailDevEmail = { id: string; subject: string; to: { address: string }[]; html: string };

describe('SMTP through MailDev', () => {
  it('sends a message that the MailDev REST API then returns with its subject and recipient', async () => {
    const mailer = createMailer(config);
    const subject = `Your weekly receivables report ${names.runId}`;
    await mailer.send({ to: 'owner@acme.test', subject, html: '<p>Total revenue: <b>$12,345.67</b></p>' });
    mailer.close();

    let found: MailDevEmail | undefined;
    for (let attempt = 0; attempt < 50 && !found; attempt += 1) {
      const response = await fetch(`${config.MAILDEV_URL}/email`);
      const emails = (await response.json()) as MailDevEmail[];
      found = emails.find((e) => e.subject === subject);
      if (!found) await new Promise((r) => setTimeout(r, 100));
    }
    expect(found?.to.map((t) => t.address)).toEqual(['owner@acme.test']);
    expect(found?.html).toContain('$12,345.67');
  });
});
