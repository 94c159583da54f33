import type { ReactNode } from 'react';
import { longDate } from '../pdf-format';
import { pdf } from '../react-pdf';
import { colors, PAGE_PADDING, text } from './theme';

export type PageCompany = {
  name: string;
  logo: { contentType: 'image/png' | 'image/jpeg'; base64: string } | null;
};

/** portal.md section 9: reports show the logo scaled to 30 px high. */
export const LOGO_HEIGHT = 30;

const Header = ({ company, title, subtitle }: { company: PageCompany; title: string; subtitle: string }) => (
  <pdf.View
    fixed
    style={{
      flexDirection: 'row',
      alignItems: 'center',
      justifyContent: 'space-between',
      paddingBottom: 8,
      marginBottom: 14,
      borderBottomWidth: 2,
      borderBottomColor: colors.accent,
    }}
  >
    <pdf.View style={{ flexDirection: 'row', alignItems: 'center', maxWidth: 300 }}>
      {company.logo && (
        <pdf.Image
          src={`data:${company.logo.contentType};base64,${company.logo.base64}`}
          style={{ height: LOGO_HEIGHT, maxWidth: 120, marginRight: 10, objectFit: 'contain' }}
        />
      )}
      <pdf.Text style={text.title}>{company.name}</pdf.Text>
    </pdf.View>
    <pdf.View style={{ alignItems: 'flex-end' }}>
      <pdf.Text style={{ ...text.bold, fontSize: 12, color: colors.accent }}>{title}</pdf.Text>
      <pdf.Text style={{ ...text.muted, marginTop: 2 }}>{subtitle}</pdf.Text>
    </pdf.View>
  </pdf.View>
);

const Footer = ({ note, page }: { note: string; page: string | null }) => (
  <pdf.View
    fixed
    style={{
      position: 'absolute',
      bottom: 18,
      left: PAGE_PADDING,
      right: PAGE_PADDING,
      flexDirection: 'row',
      justifyContent: 'space-between',
      ...text.small,
      ...text.muted,
    }}
  >
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
 * A document whose pages are laid out by hand (content bounded to fit) passes its `page` label
 * ("Page 2 of 3"): react-pdf lays a document out a second time to number pages itself, which
 * doubled the weekly report's rendering time (docs/adr/0036-report-content.md).
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
  <pdf.Page size="A4" style={{ ...text.base, padding: PAGE_PADDING, paddingBottom: PAGE_PADDING + 10 }}>
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
  <pdf.View wrap={props.breakable ?? false} style={{ marginBottom: 16 }}>
    <pdf.Text style={text.sectionTitle}>{props.title}</pdf.Text>
    {props.note !== undefined && (
      <pdf.Text style={{ ...text.muted, marginTop: -3, marginBottom: 6 }}>{props.note}</pdf.Text>
    )}
    {props.children}
  </pdf.View>
);
