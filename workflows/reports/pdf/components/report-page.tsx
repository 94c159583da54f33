import type { Style } from '@react-pdf/types';
import type { ReactNode } from 'react';
import { longDate } from '../pdf-format';
import { pdf } from '../react-pdf';
import { A4_HEIGHT, colors, PAGE_PADDING, text } from './theme';

export type PageCompany = {
  name: string;
  logo: { contentType: 'image/png' | 'image/jpeg'; base64: string } | null;
};

/** portal.md section 9: reports show the logo scaled to 30 px high. */
export const LOGO_HEIGHT = 30;

/** Styles made once: react-pdf resolves each node's style, fresh objects cost more to merge. */
const styles = {
  header: {
    flexDirection: 'row',
    alignItems: 'center',
    justifyContent: 'space-between',
    paddingBottom: 8,
    marginBottom: 14,
    borderBottomWidth: 2,
    borderBottomColor: colors.accent,
  },
  brand: { flexDirection: 'row', alignItems: 'center', maxWidth: 300 },
  logo: { height: LOGO_HEIGHT, maxWidth: 120, marginRight: 10, objectFit: 'contain' },
  // The report's title over its period, right-aligned: one text, the title's line (12 pt, so
  // 13.2 pt high) 2 pt higher than its glyphs to keep the period 2 pt below.
  titles: { textAlign: 'right' },
  title: { ...text.bold, fontSize: 12, color: colors.accent, lineHeight: '15.2pt' },
  subtitle: text.muted,
  footer: {
    position: 'absolute',
    bottom: 18,
    left: PAGE_PADDING,
    right: PAGE_PADDING,
    flexDirection: 'row',
    justifyContent: 'space-between',
    ...text.small,
    ...text.muted,
  },
  page: { ...text.base, padding: PAGE_PADDING, paddingBottom: PAGE_PADDING + 10 },
  /**
   * A page that is not split (wrap={false}) is as tall as its content to react-pdf's layout: its
   * least height keeps it A4.
   */
  fixedPage: { ...text.base, padding: PAGE_PADDING, paddingBottom: PAGE_PADDING + 10, minHeight: A4_HEIGHT },
  section: { marginBottom: 16 },
  // A section's title over its note, one text: the title's line (11 pt, so 12.1 pt high) 3 pt
  // higher than its glyphs, which keeps the note 3 pt below as a title text and a note text did.
  titled: { marginBottom: 6 },
  titleRun: { ...text.sectionTitle, marginBottom: 0, lineHeight: '15.1pt' },
} satisfies Record<string, Style>;

const Header = ({ company, title, subtitle }: { company: PageCompany; title: string; subtitle: string }) => (
  <pdf.View fixed style={styles.header}>
    <pdf.View style={styles.brand}>
      {company.logo && (
        <pdf.Image
          src={`data:${company.logo.contentType};base64,${company.logo.base64}`}
          style={styles.logo}
        />
      )}
      <pdf.Text style={text.title}>{company.name}</pdf.Text>
    </pdf.View>
    <pdf.Text style={styles.titles}>
      <pdf.Text style={styles.title}>{`${title}\n`}</pdf.Text>
      <pdf.Text style={styles.subtitle}>{subtitle}</pdf.Text>
    </pdf.Text>
  </pdf.View>
);

const Footer = ({ note, page }: { note: string; page: string | null }) => (
  <pdf.View fixed style={styles.footer}>
    <pdf.Text>{note}</pdf.Text>
    {page === null ? (
      <pdf.Text render={({ pageNumber, totalPages }) => `Page ${pageNumber} of ${totalPages}`} />
    ) : (
      <pdf.Text>{page}</pdf.Text>
    )}
  </pdf.View>
);

/**
 * A report page: the company's header on every page, the data's date and page numbers at the foot.
 *
 * A document whose pages are laid out by hand (content bounded to fit) passes its `page` label
 * ("Page 2 of 3"), and its page is not split: react-pdf then lays it out once. Splitting lays every
 * page out a second time, and numbering pages itself (a `render` prop) a third
 * (docs/adr/0036-report-content.md). Without `page`, the content flows over as many pages as it
 * needs, numbered by react-pdf.
 */
export const ReportPage = (props: {
  company: PageCompany;
  title: string;
  subtitle: string;
  /** When the figures are as of (ISO), for the footer. */
  dataAsOf: string | null;
  page?: { number: number; of: number };
  children: ReactNode;
}) => (
  <pdf.Page
    size="A4"
    wrap={props.page === undefined}
    style={props.page === undefined ? styles.page : styles.fixedPage}
  >
    <Header company={props.company} title={props.title} subtitle={props.subtitle} />
    {props.children}
    <Footer
      page={props.page ? `Page ${props.page.number} of ${props.page.of}` : null}
      note={
        props.dataAsOf === null
          ? 'Ledgerwise - no metrics computed yet'
          : `Ledgerwise - figures as of ${longDate(props.dataAsOf)}`
      }
    />
  </pdf.Page>
);

/** A titled block kept on one page when it fits. */
export const Section = (props: {
  title: string;
  note?: string;
  children: ReactNode;
  breakable?: boolean;
}) => (
  <pdf.View wrap={props.breakable ?? false} style={styles.section}>
    {props.note === undefined ? (
      <pdf.Text style={text.sectionTitle}>{props.title}</pdf.Text>
    ) : (
      <pdf.Text style={styles.titled}>
        <pdf.Text style={styles.titleRun}>{`${props.title}\n`}</pdf.Text>
        <pdf.Text style={text.muted}>{props.note}</pdf.Text>
      </pdf.Text>
    )}
    {props.children}
  </pdf.View>
);
