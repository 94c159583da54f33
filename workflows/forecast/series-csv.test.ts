import { formatCsv, parseSeriesCsv } from './series-csv';

describe('parseSeriesCsv', () => {
  it('reads ragged rows, quoted ids and Windows line ends, skipping a header and blank lines', () => {
    const text = 'seller,w1,w2\r\n"shop, one",1,2,3\r\n\r\nshop-2,4.5,-1\r\n';
    expect(parseSeriesCsv(text)).toEqual([
      { id: 'shop, one', values: [1, 2, 3] },
      { id: 'shop-2', values: [4.5, -1] },
    ]);
  });

  it('keeps a first row whose values are numbers, whatever its id', () => {
    expect(parseSeriesCsv('id,1,2\n')).toEqual([{ id: 'id', values: [1, 2] }]);
  });

  it('drops the empty cells a spreadsheet pads short rows with', () => {
    expect(parseSeriesCsv('a,1,2,,\nb,3,,,\n')).toEqual([
      { id: 'a', values: [1, 2] },
      { id: 'b', values: [3] },
    ]);
  });

  it('names the line of each kind of bad row', () => {
    expect(() => parseSeriesCsv('a,1\n,2\n')).toThrow('line 2: the first cell (the series id) is empty');
    expect(() => parseSeriesCsv('a,1\nb\n')).toThrow('line 2: series "b" has no values');
    expect(() => parseSeriesCsv('a,1\nb,1,,2\n')).toThrow('line 2, column 3: "" is not a number');
  });

  it('reads back what formatCsv writes', () => {
    const rows = [{ id: 'a "quoted", id', values: [0.1, 2e-7, 123456.789] }];
    expect(parseSeriesCsv(formatCsv(rows.map((r) => [r.id, ...r.values])))).toEqual(rows);
  });
});
