import { pdf } from '../react-pdf';

/** What react-pdf's standard fonts answer: their AFM metrics, in thousandths of the font size. */
type StandardFontMetrics = { layout: (text: string) => { advanceWidth: number } };

const fontOf = (bold: boolean): StandardFontMetrics | null => {
  const source = pdf.Font.getFont({ fontFamily: 'Helvetica', fontWeight: bold ? 700 : 400 }) as
    { data: unknown } | undefined;
  const data = source?.data as Partial<StandardFontMetrics> | null | undefined;
  return typeof data?.layout === 'function' ? (data as StandardFontMetrics) : null;
};

/**
 * The width in points of a line of Helvetica (the reports' font, components/theme.ts) at `size`,
 * measured with the same metrics react-pdf lays the text out with (its font store loads Helvetica
 * and Helvetica-Bold when it starts); null when they are not at hand, so a caller lays the text
 * out the general way.
 */
export const textWidth = (text: string, size: number, bold = false): number | null => {
  const font = fontOf(bold);
  return font === null ? null : (font.layout(text).advanceWidth * size) / 1000;
};
