import type { Style } from '@react-pdf/types';
import { pdf } from '../react-pdf';
import { colors, CONTENT_WIDTH, text } from './theme';

export type Column = { title: string; width: number; align?: 'left' | 'right' };

const rowStyle: Style = { flexDirection: 'row', borderBottomWidth: 0.5, borderBottomColor: colors.faint };
const headerStyle: Style = { flexDirection: 'row', backgroundColor: colors.panel };

/**
 * A table of text cells: a shaded header, light row rules, numbers right-aligned. Cell styles are
 * made once per column, in points: react-pdf resolves every node's style, and a table is most of a
 * report's nodes.
 */
export const DataTable = (props: { columns: Column[]; rows: string[][]; empty: string }) => {
  const cells = props.columns.map((column): Style => ({
    width: (column.width / 100) * CONTENT_WIDTH,
    paddingTop: 3,
    paddingBottom: 3,
    paddingLeft: 4,
    paddingRight: 4,
    textAlign: column.align ?? 'left',
  }));
  const heads = cells.map((cell): Style => ({ ...cell, ...text.bold, ...text.small }));
  return (
    <pdf.View>
      <pdf.View style={headerStyle} fixed>
        {props.columns.map((column, i) => (
          <pdf.Text key={column.title} style={heads[i]}>
            {column.title}
          </pdf.Text>
        ))}
      </pdf.View>
      {props.rows.length === 0 ? (
        <pdf.Text style={{ ...text.muted, padding: 4 }}>{props.empty}</pdf.Text>
      ) : (
        props.rows.map((row, index) => (
          <pdf.View key={index} style={rowStyle}>
            {props.columns.map((column, i) => (
              <pdf.Text key={column.title} style={cells[i]}>
                {row[i] ?? ''}
              </pdf.Text>
            ))}
          </pdf.View>
        ))
      )}
    </pdf.View>
  );
};
