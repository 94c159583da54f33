import ExcelJS from 'exceljs';
import { columnLetter, createSheetWriter, safeFileName } from './sheet-writer';

const asOf = new Date('2025-11-24T18:30:00.000Z');

const read = async (bytes: Uint8Array) => {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  return workbook;
};

describe('the sheet writer', () => {
  it('writes a frozen, filtered header and formats money, dates and days by column', async () => {
    const writer = createSheetWriter(
      { title: 'Acme - Customer Sheet', subject: 'As of 2025-11-24', description: 'Customers', asOf },
      'GBP',
    );
    await writer.addSheet(
      {
        name: 'Customers',
        frozenColumns: 2,
        columns: [
          { header: 'Customer ID', kind: 'id', width: 12 },
          { header: 'Customer', kind: 'text', width: 30 },
          { header: 'Open Balance', kind: 'money', width: 15 },
          { header: 'Last Payment', kind: 'date', width: 13 },
          { header: 'DSO (days)', kind: 'days', width: 10 },
          { header: 'Change', kind: 'percent', width: 10 },
        ],
      },
      [
        [7, 'Northwind', 123456, new Date('2025-10-01T00:00:00.000Z'), 41.25, 0.125],
        [8, 'Contoso', -5, null, null, null],
      ],
    );
    const workbook = await read(await writer.finish());
    expect(workbook.title).toBe('Acme - Customer Sheet');
    expect(workbook.subject).toBe('As of 2025-11-24');
    expect(workbook.creator).toBe('Ledgerwise');
    const sheet = workbook.getWorksheet('Customers');
    expect(sheet?.views[0]).toMatchObject({ state: 'frozen', xSplit: 2, ySplit: 1 });
    expect(sheet?.autoFilter).toBe('A1:F1');
    expect(sheet?.getRow(1).values).toEqual([
      undefined,
      'Customer ID',
      'Customer',
      'Open Balance',
      'Last Payment',
      'DSO (days)',
      'Change',
    ]);
    expect(sheet?.getRow(1).font?.bold ?? sheet?.getCell('A1').font?.bold).toBe(true);
    expect(sheet?.getCell('C2').value).toBe(1234.56);
    expect(sheet?.getCell('C2').numFmt).toBe('"£"#,##0.00');
    expect(sheet?.getCell('D2').value).toEqual(new Date('2025-10-01T00:00:00.000Z'));
    expect(sheet?.getCell('D2').numFmt).toBe('yyyy-mm-dd');
    expect(sheet?.getCell('E2').numFmt).toBe('#,##0.0');
    expect(sheet?.getCell('F2').numFmt).toBe('0.0%');
    expect(sheet?.getCell('C3').value).toBe(-0.05);
    expect(sheet?.getCell('D3').value).toBeNull();
    expect(sheet?.getColumn(2).width).toBe(30);
  });

  it('formats euros after the amount and dollars before it', async () => {
    for (const [currency, format] of [
      ['EUR', '#,##0.00 "€"'],
      ['USD', '"$"#,##0.00'],
    ] as const) {
      const writer = createSheetWriter({ title: 't', subject: 's', description: 'd', asOf }, currency);
      await writer.addSheet({ name: 'S', columns: [{ header: 'Amount', kind: 'money', width: 10 }] }, [
        [100],
      ]);
      const sheet = (await read(await writer.finish())).getWorksheet('S');
      expect([sheet?.getCell('A2').value, sheet?.getCell('A2').numFmt]).toEqual([1, format]);
    }
  });

  it('names columns past Z and keeps file names safe', () => {
    expect([0, 25, 26, 27, 51, 52].map(columnLetter)).toEqual(['A', 'Z', 'AA', 'AB', 'AZ', 'BA']);
    expect(safeFileName('Acme/Sons: "Q4"\n report')).toBe('Acme Sons Q4 report');
  });
});
