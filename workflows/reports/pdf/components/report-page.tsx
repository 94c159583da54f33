import type { Style } from '@react-pdf/types';
import type { ReactNode } from 'react';
import { longDate } from '../pdf-format';
import { pdf } from '../react-pdf';
import { boxStyle, drawText, fitsWidth, widthOf, type Painter, type Run } from './paint';
import { A4_HEIGHT, colors, PAGE_PADDING, text } from './theme';

export type PageCompany = {
  name: string;
  logo: { contentType: 'image/png' | 'image/jpeg'; base64: string } | null;
};

/** portal.md section 9: reports show the logo scaled to 30 px high. */
export const LOGO_HEIGHT = 30;
const LOGO_MAX_WIDTH = 120;
const LOGO_GAP = 10;

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
  logo: { height: LOGO_HEIGHT, maxWidth: LOGO_MAX_WIDTH, marginRight: LOGO_GAP, objectFit: 'contain' },
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

/** The page's content box: A4 is 595.28 points wide. */
const PAGE_CONTENT_WIDTH = 595.28 - 2 * PAGE_PADDING;
const BRAND_MAX_WIDTH = 300;
const nameRun: Run = { size: 16, bold: true, color: colors.ink };
const titleRun: Run = { size: 12, bold: true, color: colors.accent };
const subtitleRun: Run = { size: 9, color: colors.muted };
const footerRun: Run = { size: text.small.fontSize, color: colors.muted };
/** The header's titles: the title's line 15.2 pt high over the period's (9.9 pt). */
const TITLES_HEIGHT = 15.2 + 9.9;
const HEADER_RULE_TOP = TITLES_HEIGHT + 8;
const headerBoxStyle: Style = { ...boxStyle(PAGE_CONTENT_WIDTH, HEADER_RULE_TOP + 2), marginBottom: 14 };
const FOOTER_HEIGHT = text.small.fontSize * 1.1;
const footerBoxStyle: Style = {
  ...boxStyle(PAGE_CONTENT_WIDTH, FOOTER_HEIGHT),
  position: 'absolute',
  bottom: 18,
  left: PAGE_PADDING,
};

/** The header as react-pdf lays it out: the logo, the company's name, the titles. */
const HeaderLaidOut = ({
  company,
  title,
  subtitle,
}: {
  company: PageCompany;
  title: string;
  subtitle: string;
}) => (
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

/**
 * A PNG logo's width at LOGO_HEIGHT, as react-pdf sizes it (its pixel ratio, at most 120 pt wide),
 * read from the PNG's header; null for a JPEG (whose orientation react-pdf may turn) or a file
 * that is not a PNG.
 */
const pngLogoWidth = (logo: NonNullable<PageCompany['logo']>): number | null => {
  if (logo.contentType !== 'image/png') return null;
  const head = Buffer.from(logo.base64.slice(0, 32), 'base64');
  if (head.length < 24 || head.readUInt32BE(0) !== 0x89504e47 || head.toString('latin1', 12, 16) !== 'IHDR')
    return null;
  const width = head.readUInt32BE(16);
  const height = head.readUInt32BE(20);
  return width > 0 && height > 0 ? Math.min((LOGO_HEIGHT * width) / height, LOGO_MAX_WIDTH) : null;
};

/** With a logo the header's row is as tall as the logo: the name and the titles centred on it. */
const logoHeaderStyle: Style = { marginBottom: 14 };
const logoHeaderCanvasStyle: Style = boxStyle(PAGE_CONTENT_WIDTH, LOGO_HEIGHT + 8 + 2);
const logoBoxStyle = (width: number): Style => ({
  position: 'absolute',
  top: 0,
  left: 0,
  width,
  height: LOGO_HEIGHT,
  objectFit: 'contain',
});

/**
 * The page's header. With its name and titles fitting on their lines, one Canvas drawn with
 * pdfkit's calls where react-pdf puts them (components/paint.ts), beside a PNG logo as an image of
 * the size react-pdf gives it; otherwise (a long name, a JPEG logo) laid out by react-pdf.
 */
const Header = (props: { company: PageCompany; title: string; subtitle: string }) => {
  const { company, title, subtitle } = props;
  const titles = Math.max(widthOf(title, titleRun), widthOf(subtitle, subtitleRun));
  const logo = company.logo === null ? 0 : pngLogoWidth(company.logo);
  if (
    logo === null ||
    !fitsWidth(
      [company.name],
      nameRun,
      Math.min(BRAND_MAX_WIDTH, PAGE_CONTENT_WIDTH - titles) - (logo > 0 ? logo + LOGO_GAP : 0),
    )
  )
    return <HeaderLaidOut {...props} />;
  const row = Math.max(TITLES_HEIGHT, logo > 0 ? LOGO_HEIGHT : 0);
  const paint = (painter: Painter) => {
    const titlesTop = (row - TITLES_HEIGHT) / 2;
    drawText(painter, company.name, {
      run: nameRun,
      x: logo > 0 ? logo + LOGO_GAP : 0,
      top: (row - 16 * 1.1) / 2,
    });
    drawText(painter, title, { run: titleRun, x: PAGE_CONTENT_WIDTH, top: titlesTop, align: 'right' });
    drawText(painter, subtitle, {
      run: subtitleRun,
      x: PAGE_CONTENT_WIDTH,
      top: titlesTop + 15.2,
      align: 'right',
    });
    painter.rect(0, row + 8, PAGE_CONTENT_WIDTH, 2).fill(colors.accent);
    return null;
  };
  if (company.logo === null || logo === 0) return <pdf.Canvas fixed style={headerBoxStyle} paint={paint} />;
  return (
    <pdf.View fixed style={logoHeaderStyle}>
      <pdf.Canvas style={logoHeaderCanvasStyle} paint={paint} />
      <pdf.Image
        src={`data:${company.logo.contentType};base64,${company.logo.base64}`}
        style={logoBoxStyle(logo)}
      />
    </pdf.View>
  );
};

/**
 * The page's foot: the figures' date and the page's number. With the number known (pages laid
 * out by hand), one Canvas; otherwise react-pdf numbers the pages.
 */
const Footer = ({ note, page }: { note: string; page: string | null }) =>
  page === null ? (
    <pdf.View fixed style={styles.footer}>
      <pdf.Text>{note}</pdf.Text>
      <pdf.Text render={({ pageNumber, totalPages }) => `Page ${pageNumber} of ${totalPages}`} />
    </pdf.View>
  ) : (
    <pdf.Canvas
      fixed
      style={footerBoxStyle}
      paint={(painter: Painter) => {
        drawText(painter, note, { run: footerRun, x: 0, top: 0 });
        drawText(painter, page, { run: footerRun, x: PAGE_CONTENT_WIDTH, top: 0, align: 'right' });
        return null;
      }}
    />
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

const sectionTitleRun: Run = { size: 11, bold: true, color: colors.ink };
const noteRun: Run = { size: 9, color: colors.muted };
/** A section's title line: 11 pt (12.1 pt high), 15.1 pt with a note under it (9.9 pt). */
const titleBoxStyle: Style = { ...boxStyle(PAGE_CONTENT_WIDTH, 12.1), marginBottom: 6 };
const titledBoxStyle: Style = { ...boxStyle(PAGE_CONTENT_WIDTH, 15.1 + 9.9), marginBottom: 6 };

/**
 * A section's title over its note: one Canvas when each fits on one line, else one text laid
 * out by react-pdf (a long note wraps).
 */
const SectionHeading = ({ title, note }: { title: string; note?: string }) => {
  const fits =
    fitsWidth([title], sectionTitleRun, PAGE_CONTENT_WIDTH) &&
    (note === undefined || fitsWidth([note], noteRun, PAGE_CONTENT_WIDTH));
  if (!fits)
    return note === undefined ? (
      <pdf.Text style={text.sectionTitle}>{title}</pdf.Text>
    ) : (
      <pdf.Text style={styles.titled}>
        <pdf.Text style={styles.titleRun}>{`${title}\n`}</pdf.Text>
        <pdf.Text style={text.muted}>{note}</pdf.Text>
      </pdf.Text>
    );
  const paint = (painter: Painter) => {
    drawText(painter, title, { run: sectionTitleRun, x: 0, top: 0 });
    if (note !== undefined) drawText(painter, note, { run: noteRun, x: 0, top: 15.1 });
    return null;
  };
  return <pdf.Canvas style={note === undefined ? titleBoxStyle : titledBoxStyle} paint={paint} />;
};

/** A titled block kept on one page when it fits. */
export const Section = (props: {
  title: string;
  note?: string;
  children: ReactNode;
  breakable?: boolean;
}) => (
  <pdf.View wrap={props.breakable ?? false} style={styles.section}>
    <SectionHeading title={props.title} {...(props.note === undefined ? {} : { note: props.note })} />
    {props.children}
  </pdf.View>
);
