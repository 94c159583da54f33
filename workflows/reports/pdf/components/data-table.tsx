import { pdf } from '../react-pdf';
import { colors, text } from './theme';

export type Column = { title: string; width: number; align?: 'left' | 'right' };

/** A table of text cells: a shaded header, light row rules, numbers right-aligned. */
export const DataTable = (props: { columns: Column[]; rows: string[][]; empty: string }) => {
  const cell = (column: Column) => ({
    width: `${column.width}%`,
    paddingVertical: 3,
    paddingHorizontal: 4,
    textAlign: column.align ?? 'left',
  });
  return (
    <pdf.View>
      <pdf.View style={{ flexDirection: 'row', backgroundColor: colors.panel }} fixed>
        {props.columns.map((column) => (
          <pdf.Text key={column.title} style={{ ...cell(column), ...text.bold, ...text.small }}>
            {column.title}
          </pdf.Text>
        ))}
      </pdf.View>
      {props.rows.length === 0 ? (
        <pdf.Text style={{ ...text.muted, padding: 4 }}>{props.empty}</pdf.Text>
      ) : (
        props.rows.map((row, index) => (
          <pdf.View
            key={index}
            wrap={false}
            style={{ flexDirection: 'row', borderBottomWidth: 0.5, borderBottomColor: colors.faint }}
          >
            {props.columns.map((column, i) => (
              <pdf.Text key={column.title} style={cell(column)}>
                {row[i] ?? ''}
              </pdf.Text>
            ))}
          </pdf.View>
        ))
      )}
    </pdf.View>
  );
};
