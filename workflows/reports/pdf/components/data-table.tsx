import type { Style } from '@react-pdf/types';
import { pdf } from '../react-pdf';
import { colors, CONTENT_WIDTH, text } from './theme';
import { boxStyle, drawText, fitsWidth, type Painter, type Run } from './paint';

export type Column = { title: string; width: number; align?: 'left' | 'right' };

/** A body row: a 9 pt line (10.4 pt in Helvetica) with 3 pt above and below. */
const ROW_HEIGHT = 16.4;
const CELL_PADDING = 4;
/** The header row: a line of 7.5 pt bold with 3 pt above and below, as measured in a row of cells. */
const HEADER_HEIGHT = 14.25;
/** Tables up to this many rows may be drawn as columns (see DataTable); longer ones may cross pages. */
const MAX_COLUMN_ROWS = 20;

const rowStyle: Style = { flexDirection: 'row', borderBottomWidth: 0.5, borderBottomColor: colors.faint };
const headerStyle: Style = { flexDirection: 'row', backgroundColor: colors.panel };
const emptyStyle: Style = { ...text.muted, padding: 4 };

const headRun: Run = { size: text.small.fontSize, bold: true, color: colors.ink };
const cellRun: Run = { size: text.base.fontSize, color: colors.ink };

type ColumnStyles = { cell: Style; head: Style; left: number; inner: number; align: 'left' | 'right' };

/** Each column's styles, made once per table shape (react-pdf resolves every node's style). */
const stylesCache = new Map<string, ColumnStyles[]>();
const stylesOf = (columns: Column[]): ColumnStyles[] => {
  const key = columns.map((c) => `${c.width}${c.align ?? 'left'}`).join(',');
  let styles = stylesCache.get(key);
  if (!styles) {
    let left = 0;
    styles = columns.map((column) => {
      const width = (column.width / 100) * CONTENT_WIDTH;
      const cell: Style = {
        width,
        paddingTop: 3,
        paddingBottom: 3,
        paddingLeft: CELL_PADDING,
        paddingRight: CELL_PADDING,
        textAlign: column.align ?? 'left',
      };
      const styled = {
        cell,
        head: { ...cell, ...text.bold, ...text.small },
        left,
        inner: width - 2 * CELL_PADDING,
        align: column.align ?? 'left',
      };
      left += width;
      return styled;
    });
    stylesCache.set(key, styles);
  }
  return styles;
};

/**
 * Whether every cell fits on one line of its column (a point to spare): then no row can grow and
 * the table has a fixed size.
 */
const fitsOneLine = (columns: Column[], styles: ColumnStyles[], rows: string[][]) =>
  rows.length <= MAX_COLUMN_ROWS &&
  columns.every((column, i) => fitsWidth([column.title], headRun, styles[i]?.inner ?? 0)) &&
  rows.every((row) =>
    styles.every((column, i) => {
      const cell = row[i] ?? '';
      // An empty line might not keep its height: such a table keeps its rows.
      return cell !== '' && !cell.includes('\n') && fitsWidth([cell], cellRun, column.inner);
    }),
  );

/**
 * A table of one-line cells drawn in one Canvas: the shaded header, a light rule under each row
 * and each cell's text, where a row of cells would put them (a cell's line starts 3 pt below its
 * row's top).
 */
const paintTable = (styles: ColumnStyles[], titles: string[], rows: string[][]) => (painter: Painter) => {
  painter.rect(0, 0, CONTENT_WIDTH, HEADER_HEIGHT).fill(colors.panel);
  painter.lineWidth(0.5).strokeColor(colors.faint);
  for (let i = 1; i <= rows.length; i += 1) {
    const y = HEADER_HEIGHT + i * ROW_HEIGHT - 0.25;
    painter.moveTo(0, y).lineTo(CONTENT_WIDTH, y);
  }
  if (rows.length > 0) painter.stroke();
  const cellAt = (column: ColumnStyles) =>
    column.align === 'right' ? column.left + CELL_PADDING + column.inner : column.left + CELL_PADDING;
  styles.forEach((column, i) => {
    const x = cellAt(column);
    drawText(painter, titles[i] ?? '', { run: headRun, x: x, top: 3, align: column.align });
    rows.forEach((row, r) =>
      drawText(painter, row[i] ?? '', {
        run: cellRun,
        x: x,
        top: HEADER_HEIGHT + r * ROW_HEIGHT + 3,
        align: column.align,
      }),
    );
  });
  return null;
};

/**
 * A table of text cells: a shaded header, light row rules, numbers right-aligned.
 *
 * When every cell fits on one line (measured with the font's metrics, components/text-width.ts),
 * the table has a fixed size: it is one Canvas whose cells are drawn with pdfkit's calls where a
 * row of cells would put them (components/paint.ts), the same page as rows of cells without
 * react-pdf's text engine laying out each cell (docs/adr/0036-report-content.md).
 * Otherwise (a long name that must wrap, or a table long enough to cross pages) each row is a row
 * of cells that grows with its tallest one, under a header repeated on every page.
 */
export const DataTable = (props: { columns: Column[]; rows: string[][]; empty: string }) => {
  const styles = stylesOf(props.columns);
  if (props.rows.length > 0 && fitsOneLine(props.columns, styles, props.rows))
    return (
      <pdf.Canvas
        style={boxStyle(CONTENT_WIDTH, HEADER_HEIGHT + props.rows.length * ROW_HEIGHT)}
        paint={paintTable(
          styles,
          props.columns.map((column) => column.title),
          props.rows,
        )}
      />
    );
  const header = (
    <pdf.View style={headerStyle} fixed>
      {props.columns.map((column, i) => (
        <pdf.Text key={column.title} style={styles[i]?.head}>
          {column.title}
        </pdf.Text>
      ))}
    </pdf.View>
  );
  if (props.rows.length === 0)
    return (
      <pdf.View>
        {header}
        <pdf.Text style={emptyStyle}>{props.empty}</pdf.Text>
      </pdf.View>
    );
  return (
    <pdf.View>
      {header}
      {props.rows.map((row, index) => (
        <pdf.View key={index} style={rowStyle}>
          {props.columns.map((column, i) => (
            <pdf.Text key={column.title} style={styles[i]?.cell}>
              {row[i] ?? ''}
            </pdf.Text>
          ))}
        </pdf.View>
      ))}
    </pdf.View>
  );
};
