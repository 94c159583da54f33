import { renderEmail } from '../../workflows/email/render-email';
import { createMailer } from '../../workflows/email/smtp-mailer';
import { invitationEmail } from '../../workflows/email/templates/auth-emails';
import { isolatedNames, testConfig } from '../harness/isolation';

const names = isolatedNames(__filename);
const config = testConfig(names);

type MailDevEmail = { id: string; subject: string; to: { address: string }[]; html: string; text: string };

describe('MJML emails through SMTP and MailDev', () => {
  it('delivers an invitation whose link can be read back from the received HTML', async () => {
    const acceptUrl = `${config.PUBLIC_URL}/api/auth/invitation/${names.runId}`;
    const mailer = createMailer(config);
    await mailer.send(
      await renderEmail(
        'new.member@acme.test',
        invitationEmail({
          inviterName: 'Ada',
          tenantName: `Acme ${names.runId}`,
          inviteeName: 'Sam',
          acceptUrl,
          withConnectionInstructions: false,
        }),
      ),
    );
    mailer.close();

    let received: MailDevEmail | undefined;
    for (let attempt = 0; attempt < 50 && !received; attempt += 1) {
      const emails = (await (await fetch(`${config.MAILDEV_URL}/email`)).json()) as MailDevEmail[];
      received = emails.find((e) => e.subject.includes(names.runId));
      if (!received) await new Promise((r) => setTimeout(r, 100));
    }
    expect(received?.to.map((t) => t.address)).toEqual(['new.member@acme.test']);
    const links = [...(received?.html ?? '').matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    expect(links).toContain(acceptUrl);
    expect(received?.text).toContain(acceptUrl);
  });
});
