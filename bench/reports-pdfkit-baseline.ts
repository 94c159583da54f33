import PDFDocument from 'pdfkit';
import { peakRssKb } from '../workflows/reports/pdf/peak-rss';
import type { ReportData } from '../workflows/reports/report-data/report-data';
import {
  changeOf,
  compactMoney,
  days,
  longDate,
  money,
  periodLabel,
  shortDate,
  signedShare,
} from '../workflows/reports/pdf/pdf-format';

/**
 * The baseline of the reports PDF benchmark (bench/suites/reports-pdf.ts): pdfkit, the engine
 * beneath @react-pdf, drawing the same weekly report by hand: the same texts (formatted by the same
 * functions), tables, KPI boxes, bar chart, aging bar and forecast line, with fixed coordinates
 * instead of a layout engine. Run as its own process (like the PDF process) so its peak memory
 * compares.
 */
const A4 = { width: 595.28, height: 841.89 };
const M = 36;
const W = A4.width - 2 * M;
const ink = '#1f2937';
const muted = '#6b7280';
const faint = '#e5e7eb';
const accent = '#2563eb';
const accentSoft = '#93c5fd';
const agingColors = ['#22c55e', '#facc15', '#fb923c', '#f87171', '#b91c1c'];

type Doc = InstanceType<typeof PDFDocument>;

const header = (doc: Doc, data: ReportData, title: string) => {
  doc
    .font('Helvetica-Bold')
    .fontSize(16)
    .fillColor(ink)
    .text(data.company.name, M, M + 6, { lineBreak: false });
  doc.fontSize(12).fillColor(accent).text(title, M, M, { width: W, align: 'right' });
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor(muted)
    .text(periodLabel(data.period, data.frequency), M, M + 16, {
      width: W,
      align: 'right',
    });
  doc
    .moveTo(M, M + 38)
    .lineTo(M + W, M + 38)
    .lineWidth(2)
    .strokeColor(accent)
    .stroke();
};

const footer = (doc: Doc, data: ReportData, page: number, pages: number) => {
  doc.font('Helvetica').fontSize(7.5).fillColor(muted);
  doc.text(`Ledgerwise - figures as of ${longDate(data.dataAsOf ?? data.asOf)}`, M, A4.height - 28, {
    lineBreak: false,
  });
  doc.text(`Page ${page} of ${pages}`, M, A4.height - 28, { width: W, align: 'right' });
};

const card = (
  doc: Doc,
  box: { x: number; y: number; w: number },
  label: string,
  value: string,
  notes: string[],
) => {
  doc.roundedRect(box.x, box.y, box.w, 58, 4).fillAndStroke('#f8fafc', faint);
  doc
    .font('Helvetica')
    .fontSize(7.5)
    .fillColor(muted)
    .text(label.toUpperCase(), box.x + 8, box.y + 8);
  doc
    .font('Helvetica-Bold')
    .fontSize(13)
    .fillColor(ink)
    .text(value, box.x + 8, box.y + 19);
  notes.forEach((note, i) => {
    doc
      .polygon(
        [box.x + 8, box.y + 44 + i * 9],
        [box.x + 13, box.y + 44 + i * 9],
        [box.x + 10.5, box.y + 39 + i * 9],
      )
      .fill(i === 0 ? '#16a34a' : '#dc2626');
    doc
      .font('Helvetica')
      .fontSize(7.5)
      .fillColor(muted)
      .text(note, box.x + 16, box.y + 38 + i * 9);
  });
};

const table = (
  doc: Doc,
  top: number,
  columns: { title: string; width: number; right?: boolean }[],
  rows: string[][],
) => {
  let y = top;
  const row = (cells: string[], bold: boolean) => {
    let x = M;
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(bold ? 7.5 : 9)
      .fillColor(ink);
    cells.forEach((cell, i) => {
      const width = ((columns[i]?.width ?? 0) / 100) * W;
      doc.text(cell, x + 4, y + 3, {
        width: width - 8,
        align: columns[i]?.right ? 'right' : 'left',
        lineBreak: false,
      });
      x += width;
    });
    y += 16;
    doc
      .moveTo(M, y)
      .lineTo(M + W, y)
      .lineWidth(0.5)
      .strokeColor(faint)
      .stroke();
  };
  doc.rect(M, y, W, 16).fill('#f8fafc');
  row(
    columns.map((c) => c.title),
    true,
  );
  rows.forEach((cells) => row(cells, false));
  return y;
};

const sectionTitle = (doc: Doc, y: number, title: string, note: string) => {
  doc.font('Helvetica-Bold').fontSize(11).fillColor(ink).text(title, M, y);
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor(muted)
    .text(note, M, y + 15, { width: W });
  return y + 30;
};

export const drawWeeklyWithPdfkit = (data: ReportData): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: M, autoFirstPage: true });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const { currency } = data.company;
    const title = data.frequency === 'weekly' ? 'Weekly Report' : 'Monthly Report';
    const unit = data.frequency === 'weekly' ? 'week' : 'month';

    header(doc, data, title);
    doc
      .font('Helvetica')
      .fontSize(9)
      .fillColor(muted)
      .text(
        `Figures for ${periodLabel(data.period, data.frequency)}, compared with the previous ${unit} (${periodLabel(data.previousPeriod, data.frequency)}) and the same ${unit} last year (${periodLabel(data.lastYearPeriod, data.frequency)}).`,
        M,
        M + 50,
        { width: W },
      );
    const cardWidth = (W - 12) / 3;
    const change = (now: number, before: number, label: string) => {
      const ratio = changeOf(now, before);
      return ratio === null ? `n/a ${label}` : `${signedShare(ratio)} ${label}`;
    };
    const cards: [string, string, string[]][] = [
      [
        'Revenue',
        money(data.revenue.current, currency),
        [
          change(data.revenue.current, data.revenue.previous, `vs previous ${unit}`),
          change(data.revenue.current, data.revenue.lastYear, 'vs last year'),
        ],
      ],
      [
        'Collections',
        money(data.collections.current, currency),
        [
          change(data.collections.current, data.collections.previous, `vs previous ${unit}`),
          change(data.collections.current, data.collections.lastYear, 'vs last year'),
        ],
      ],
      ['DSO', days(data.dso.current), [`vs previous ${unit}`]],
      [
        'Open receivables',
        money(data.receivables.open, currency),
        [change(data.receivables.open, data.previousReceivables.open, `vs previous ${unit}`)],
      ],
      [
        'Overdue receivables',
        money(data.receivables.overdue, currency),
        [change(data.receivables.overdue, data.previousReceivables.overdue, `vs previous ${unit}`)],
      ],
      [
        'Open invoices',
        String(data.receivables.openInvoices),
        [`${data.chase.overdueInvoices} overdue and still open`],
      ],
    ];
    cards.forEach(([label, value, notes], i) =>
      card(
        doc,
        { x: M + (i % 3) * (cardWidth + 6), y: M + 80 + Math.floor(i / 3) * 66, w: cardWidth },
        label,
        value,
        notes,
      ),
    );

    // Revenue against collections: 8 pairs of bars with a money axis.
    let y = sectionTitle(
      doc,
      M + 220,
      'Revenue and collections',
      `The last ${data.trend.length} ${unit}s, this ${unit} last.`,
    );
    const chart = { x: M + 48, y, w: W - 48, h: 130 };
    const max = Math.max(1, ...data.trend.flatMap((p) => [p.revenue, p.collections]));
    [0, 0.25, 0.5, 0.75, 1].forEach((step) => {
      const lineY = chart.y + chart.h - step * chart.h;
      doc
        .moveTo(chart.x, lineY)
        .lineTo(chart.x + chart.w, lineY)
        .lineWidth(0.5)
        .strokeColor(faint)
        .stroke();
      doc
        .font('Helvetica')
        .fontSize(6.5)
        .fillColor(muted)
        .text(compactMoney(max * step, currency), M, lineY - 3, { width: 44, align: 'right' });
    });
    const slot = chart.w / data.trend.length;
    data.trend.forEach((point, i) => {
      const center = chart.x + slot * i + slot / 2;
      const bar = (value: number, x: number, color: string) =>
        doc.rect(x, chart.y + chart.h - (value / max) * chart.h, 16, (value / max) * chart.h).fill(color);
      bar(point.revenue, center - 17, accent);
      bar(point.collections, center + 1, accentSoft);
      doc
        .fontSize(6.5)
        .fillColor(muted)
        .text(shortDate(point.start), center - 20, chart.y + chart.h + 4, { width: 40, align: 'center' });
    });
    y = table(
      doc,
      chart.y + chart.h + 24,
      [
        { title: '', width: 28 },
        { title: `This ${unit}`, width: 24, right: true },
        { title: `Previous ${unit}`, width: 24, right: true },
        { title: 'Same period last year', width: 24, right: true },
      ],
      [
        [
          'Revenue (invoiced)',
          money(data.revenue.current, currency),
          money(data.revenue.previous, currency),
          money(data.revenue.lastYear, currency),
        ],
        [
          'Collections (payments)',
          money(data.collections.current, currency),
          money(data.collections.previous, currency),
          money(data.collections.lastYear, currency),
        ],
      ],
    );

    // Aging: one stacked bar and its legend.
    y = sectionTitle(
      doc,
      y + 16,
      'Receivables by age',
      `Open ${money(data.receivables.open, currency)}, of which ${money(data.receivables.overdue, currency)} overdue, at the end of ${longDate(data.period.end)}.`,
    );
    const total = Math.max(
      1,
      data.receivables.aging.reduce((sum, b) => sum + b.amount, 0),
    );
    let x = M;
    data.receivables.aging.forEach((bucket, i) => {
      const w = (bucket.amount / total) * W;
      doc.rect(x, y, w, 16).fill(agingColors[i] ?? faint);
      x += w;
      const lx = M + (W / 5) * i;
      doc
        .font('Helvetica')
        .fontSize(7.5)
        .fillColor(muted)
        .text(bucket.bucket, lx + 12, y + 24);
      doc
        .font('Helvetica-Bold')
        .fontSize(9)
        .fillColor(ink)
        .text(money(bucket.amount, currency), lx + 12, y + 33);
      doc
        .font('Helvetica')
        .fontSize(7.5)
        .fillColor(muted)
        .text(`${bucket.invoices} inv.`, lx + 12, y + 44);
    });
    footer(doc, data, 1, 3);

    doc.addPage();
    header(doc, data, title);
    y = sectionTitle(
      doc,
      M + 50,
      'Customers whose payment habits changed',
      `Average days late of payments, moved by 10 days or more (${data.habits.total}).`,
    );
    y = table(
      doc,
      y,
      [
        { title: 'Customer', width: 46 },
        { title: 'Days late before', width: 18, right: true },
        { title: 'Days late now', width: 18, right: true },
        { title: 'Change', width: 18, right: true },
      ],
      data.habits.changes.map((c) => [c.name, days(c.daysLateBefore), days(c.daysLateAfter), days(c.change)]),
    );
    y = sectionTitle(
      doc,
      y + 16,
      'Invoices to chase first',
      `Overdue at ${longDate(data.period.end)} and still open (${data.chase.invoices.length} of ${data.chase.overdueInvoices}).`,
    );
    table(
      doc,
      y,
      [
        { title: 'Customer', width: 34 },
        { title: 'Invoice', width: 16 },
        { title: 'Due', width: 16 },
        { title: 'Days overdue', width: 14, right: true },
        { title: 'Balance', width: 20, right: true },
      ],
      data.chase.invoices.map((i) => [
        i.customerName,
        i.docNumber,
        longDate(i.dueDate),
        String(i.daysOverdue),
        money(i.balance, currency),
      ]),
    );
    footer(doc, data, 2, 3);

    doc.addPage();
    header(doc, data, title);
    const weeks = data.forecast?.weeks ?? [];
    y = sectionTitle(
      doc,
      M + 50,
      'Collections forecast',
      `Expected cash-in over the next ${weeks.length} weeks.`,
    );
    const top = Math.max(1, ...weeks.map((w) => w.upper80));
    const step = (W - 48) / Math.max(1, weeks.length);
    const point = (i: number, v: number): [number, number] => [
      M + 48 + step * i + step / 2,
      y + 110 - (v / top) * 110,
    ];
    if (weeks.length > 0) {
      doc
        .polygon(
          ...weeks.map((w, i) => point(i, w.upper80)),
          ...weeks.map((w, i) => point(i, w.lower80)).reverse(),
        )
        .fillOpacity(0.45)
        .fill(accentSoft);
      doc.fillOpacity(1);
      const [first, ...rest] = weeks.map((w, i) => point(i, w.mean));
      if (first) doc.moveTo(...first);
      rest.forEach((p) => doc.lineTo(...p));
      doc.lineWidth(1.5).strokeColor(accent).stroke();
    }
    table(
      doc,
      y + 130,
      [
        { title: 'Week of', width: 25 },
        { title: 'Expected', width: 25, right: true },
        { title: 'Low (80%)', width: 25, right: true },
        { title: 'High (80%)', width: 25, right: true },
      ],
      weeks.map((w) => [
        shortDate(w.start),
        money(w.mean, currency),
        money(w.lower80, currency),
        money(w.upper80, currency),
      ]),
    );
    footer(doc, data, 3, 3);
    doc.end();
  });

export type DrawTiming = { ms: number; cpuMs: number; bytes: number };

/**
 * As a child process: draws the report it is sent `renders` times in a row, answering each
 * drawing's wall-clock and CPU time, and the process's peak memory.
 */
if (process.send)
  process.on('message', (request: { data: ReportData; renders: number }) => {
    const timings: DrawTiming[] = [];
    const next = async (): Promise<void> => {
      if (timings.length === request.renders) return;
      const started = performance.now();
      const cpu = process.cpuUsage();
      const bytes = await drawWeeklyWithPdfkit(request.data);
      const used = process.cpuUsage(cpu);
      timings.push({
        ms: performance.now() - started,
        cpuMs: (used.user + used.system) / 1000,
        bytes: bytes.length,
      });
      return next();
    };
    next().then(
      () => process.send?.({ timings, maxRssKb: peakRssKb() }),
      (error: unknown) => process.send?.({ error: String(error) }),
    );
  });
