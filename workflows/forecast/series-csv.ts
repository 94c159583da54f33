/**
 * The series CSV of `ledgerwise forecast` and the forecast benches: one series per row, its id first,
 * then its values oldest first; rows may differ in length. The first row is a header, and skipped,
 * when its second cell is not a number (an id column may hold anything, so the id cell cannot tell).
 */

export type NamedSeries = { id: string; values: number[] };

export class SeriesCsvError extends Error {}

/** Splits one CSV line, honouring double quotes ("a,b" and "" inside quotes). */
const splitCsvLine = (line: string): string[] => {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  cells.push(cell);
  return cells;
};

const isNumber = (cell: string) => cell.trim() !== '' && Number.isFinite(Number(cell));

export const parseSeriesCsv = (text: string): NamedSeries[] => {
  const lines = text.split(/\r?\n/);
  const series: NamedSeries[] = [];
  const seen = new Set<string>();
  let firstRow = true;
  lines.forEach((line, index) => {
    const lineNumber = index + 1;
    if (line.trim() === '') return;
    const [rawId = '', ...cells] = splitCsvLine(line);
    // Trailing empty cells come from spreadsheets padding ragged rows.
    while (cells.length > 0 && (cells.at(-1) ?? '').trim() === '') cells.pop();
    const isHeader = firstRow && cells.length > 0 && !isNumber(cells[0] ?? '');
    firstRow = false;
    if (isHeader) return;
    const id = rawId.trim();
    if (id === '') throw new SeriesCsvError(`line ${lineNumber}: the first cell (the series id) is empty`);
    if (seen.has(id)) throw new SeriesCsvError(`line ${lineNumber}: series id "${id}" appears twice`);
    const values = cells.map((cell, column) => {
      if (!isNumber(cell))
        throw new SeriesCsvError(
          `line ${lineNumber}, column ${column + 2}: "${cell}" is not a number (series "${id}")`,
        );
      return Number(cell);
    });
    if (values.length === 0) throw new SeriesCsvError(`line ${lineNumber}: series "${id}" has no values`);
    seen.add(id);
    series.push({ id, values });
  });
  return series;
};

const csvCell = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);

/** Rows of cells to CSV text, numbers written in full (shortest round-trip form). */
export const formatCsv = (rows: readonly (readonly (string | number)[])[]): string =>
  rows.map((row) => row.map((cell) => csvCell(String(cell))).join(',')).join('\n') + '\n';
