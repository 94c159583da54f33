/** Text placed into MJML markup: user-supplied names and company names must never become markup. */
export const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export type EmailContent = {
  subject: string;
  /** MJML markup of the whole message. */
  mjml: string;
  /** The plain-text alternative, for clients that show no HTML. */
  text: string;
};

const brand = '#111827';

/** The one frame every transactional email shares: brand bar, a heading, the body, one call to action. */
export const layout = (parts: {
  preview: string;
  heading: string;
  paragraphs: string[];
  action: { label: string; url: string };
  footnote: string;
}): string => `<mjml>
  <mj-head>
    <mj-title>${escapeHtml(parts.heading)}</mj-title>
    <mj-preview>${escapeHtml(parts.preview)}</mj-preview>
    <mj-attributes>
      <mj-all font-family="Helvetica, Arial, sans-serif" />
      <mj-text font-size="15px" line-height="22px" color="#374151" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#f3f4f6">
    <mj-section background-color="${brand}" padding="16px 24px">
      <mj-column><mj-text color="#ffffff" font-size="20px" font-weight="bold">Ledgerwise</mj-text></mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="24px">
      <mj-column>
        <mj-text font-size="20px" font-weight="bold" color="${brand}">${escapeHtml(parts.heading)}</mj-text>
        ${parts.paragraphs.map((p) => `<mj-text>${p}</mj-text>`).join('\n        ')}
        <mj-button background-color="${brand}" href="${escapeHtml(parts.action.url)}" padding="16px 0">${escapeHtml(parts.action.label)}</mj-button>
        <mj-text font-size="13px" color="#6b7280">If the button does not work, open this link: <a href="${escapeHtml(parts.action.url)}">${escapeHtml(parts.action.url)}</a></mj-text>
        <mj-text font-size="13px" color="#6b7280">${escapeHtml(parts.footnote)}</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
