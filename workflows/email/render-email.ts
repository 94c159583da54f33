import mjml2html from 'mjml';
import type { OutgoingEmail } from './smtp-mailer';
import type { EmailContent } from './templates/layout';

/** Renders an email's MJML to the responsive HTML mail clients need; a template error is a bug, so it throws. */
export const renderEmail = async (to: string, content: EmailContent): Promise<OutgoingEmail> => {
  const rendered = await mjml2html(content.mjml, { validationLevel: 'strict' });
  if (rendered.errors.length > 0) {
    throw new Error(
      `Email template "${content.subject}" is invalid: ${rendered.errors.map((e) => e.formattedMessage).join('; ')}`,
    );
  }
  return { to, subject: content.subject, html: rendered.html, text: content.text };
};
