import { pdf } from '../react-pdf';

/**
 * What react-pdf's standard fonts hold (@react-pdf/font): the font's AFM metrics as a pdfkit
 * font, whose widthOfString sums each glyph's advance with its kerning, in points at `size`.
 */
type StandardFontMetrics = { src: { widthOfString: (text: string, size: number) => number } };

const fonts = new Map<boolean, StandardFontMetrics | null>();
const fontOf = (bold: boolean): StandardFontMetrics | null => {
  let font = fonts.get(bold);
  if (font === undefined) {
    const source = pdf.Font.getFont({ fontFamily: 'Helvetica', fontWeight: bold ? 700 : 400 }) as
      { data: unknown } | undefined;
    const data = source?.data as Partial<StandardFontMetrics> | null | undefined;
    font = typeof data?.src?.widthOfString === 'function' ? (data as StandardFontMetrics) : null;
    // Only a font found is kept: react-pdf's font store loads them when it starts.
    if (font !== null) fonts.set(bold, font);
  }
  return font;
};

/**
 * The width in points of a line of Helvetica (the reports' font, components/theme.ts) at `size`:
 * its glyphs' advances with their kerning, from the same metrics react-pdf lays the text out
 * with and pdfkit draws it with (react-pdf's font store loads Helvetica and Helvetica-Bold when
 * it starts); null when they are not at hand, so a caller lays the text out the general way.
 */
export const textWidth = (text: string, size: number, bold = false): number | null => {
  const font = fontOf(bold);
  return font === null ? null : font.src.widthOfString(text, size);
};
