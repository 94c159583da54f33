import type { Config } from '../../contracts/config';

type MailDevEmail = { id: string; subject: string; to: { address: string }[]; html: string; text: string };

export type ReceivedEmail = { subject: string; html: string; text: string; links: string[] };

/** The newest email MailDev received for `to` (and matching `subject` when given), waiting up to 10 s. */
export const waitForEmail = async (
  config: Pick<Config, 'MAILDEV_URL'>,
  query: { to: string; subject?: RegExp; after?: number },
): Promise<ReceivedEmail> => {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const emails = (await (await fetch(`${config.MAILDEV_URL}/email`)).json()) as MailDevEmail[];
    const matching = emails.filter(
      (e) =>
        e.to.some((t) => t.address.toLowerCase() === query.to.toLowerCase()) &&
        (!query.subject || query.subject.test(e.subject)),
    );
    const found = matching[query.after ?? 0];
    if (found) {
      const links = [...found.html.matchAll(/href="([^"]+)"/g)].map((m) =>
        (m[1] ?? '').replaceAll('&amp;', '&'),
      );
      return { subject: found.subject, html: found.html, text: found.text, links };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No email to ${query.to} matching ${String(query.subject)} arrived in MailDev`);
};

/** The path and query of an emailed link, to follow it with `inject`. */
export const pathOf = (link: string): string => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};
