import type { Style } from '@react-pdf/types';
import { pdf } from '../react-pdf';
import { colors, CONTENT_WIDTH, text } from './theme';
import { textWidth } from './text-width';

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
const bodyStyle: Style = { flexDirection: 'row' };
const headRunStyle: Style = { ...text.bold, ...text.small, lineHeight: `${HEADER_HEIGHT}pt` };
const rulesStyle: Style = { position: 'absolute', top: 0, left: 0 };

type ColumnStyles = { cell: Style; head: Style; line: Style; inner: number };

/** Each column's styles, made once per table shape (react-pdf resolves every node's style). */
const stylesCache = new Map<string, ColumnStyles[]>();
const stylesOf = (columns: Column[]): ColumnStyles[] => {
  const key = columns.map((c) => `${c.width}${c.align ?? 'left'}`).join(',');
  let styles = stylesCache.get(key);
  if (!styles) {
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
      return {
        cell,
        head: { ...cell, ...text.bold, ...text.small },
        // A line of ROW_HEIGHT holds its glyphs at its top: moved down by the cell's padding, they
        // sit where a row of cells puts them.
        line: { ...cell, paddingTop: 0, paddingBottom: 0, top: 3, lineHeight: `${ROW_HEIGHT}pt` },
        inner: width - 2 * CELL_PADDING,
      };
    });
    stylesCache.set(key, styles);
  }
  return styles;
};

/**
 * Whether every cell fits on one line of its column (a point to spare): then no row can grow and
 * the table can be drawn column by column.
 */
const fitsOneLine = (columns: Column[], styles: ColumnStyles[], rows: string[][]) =>
  rows.length <= MAX_COLUMN_ROWS &&
  columns.every((column, i) => {
    const width = textWidth(column.title, text.small.fontSize, true);
    return width !== null && width <= (styles[i]?.inner ?? 0) - 1;
  }) &&
  rows.every((row) =>
    styles.every((column, i) => {
      const cell = row[i] ?? '';
      // An empty line might not keep its height: such a table keeps its rows.
      if (cell === '' || cell.includes('\n')) return false;
      const width = textWidth(cell, text.base.fontSize);
      return width !== null && width <= column.inner - 1;
    }),
  );

/** The shaded header and the light rules under each row of a table drawn by columns: one drawing. */
const Rules = ({ rows }: { rows: number }) => (
  <pdf.Svg width={CONTENT_WIDTH} height={HEADER_HEIGHT + rows * ROW_HEIGHT} style={rulesStyle}>
    <pdf.Rect x={0} y={0} width={CONTENT_WIDTH} height={HEADER_HEIGHT} fill={colors.panel} />
    {Array.from({ length: rows }, (_, i) => {
      const y = HEADER_HEIGHT + (i + 1) * ROW_HEIGHT - 0.25;
      return (
        <pdf.Line key={i} x1={0} x2={CONTENT_WIDTH} y1={y} y2={y} stroke={colors.faint} strokeWidth={0.5} />
      );
    })}
  </pdf.Svg>
);

/**
 * A table of text cells: a shaded header, light row rules, numbers right-aligned.
 *
 * When every cell fits on one line (measured with the font's metrics, components/text-width.ts),
 * each column is one text, its title then one line per row at a fixed pitch, over one drawing of
 * the header's shade and the rules: the same page as a row of cells per row, with a sixth of the
 * nodes to lay out (react-pdf's cost is per node and per text, docs/adr/0036-report-content.md).
 * Otherwise (a long name that must wrap, or a table long enough to cross pages) each row is a row
 * of cells that grows with its tallest one, under a header repeated on every page.
 */
export const DataTable = (props: { columns: Column[]; rows: string[][]; empty: string }) => {
  const styles = stylesOf(props.columns);
  if (props.rows.length > 0 && fitsOneLine(props.columns, styles, props.rows))
    return (
      <pdf.View style={bodyStyle} wrap={false}>
        <Rules rows={props.rows.length} />
        {props.columns.map((column, i) => (
          <pdf.Text key={column.title} style={styles[i]?.line}>
            <pdf.Text style={headRunStyle}>{`${column.title}\n`}</pdf.Text>
            {props.rows.map((row) => row[i] ?? '').join('\n')}
          </pdf.Text>
        ))}
      </pdf.View>
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
