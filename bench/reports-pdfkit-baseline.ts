import PDFDocument from 'pdfkit';
import { peakRssKb } from '../workflows/reports/pdf/peak-rss';
import type { ReportData } from '../workflows/reports/report-data/report-data';
import type { Currency } from '../contracts/events/tenant';
import {
  changeOf,
  compactMoney,
  count,
  days,
  longDate,
  money,
  periodLabel,
  share,
  shortDate,
  shortMonth,
  signedShare,
} from '../workflows/reports/pdf/pdf-format';

/**
 * The baseline of the reports PDF benchmark (bench/suites/reports-pdf.ts): pdfkit, the engine
 * beneath @react-pdf, drawing the same weekly report by hand: every text the report prints (the
 * same strings, formatted by the same functions: headers, KPI cards with their change lines and
 * arrows, section titles and notes, chart axes, date labels and legends, the aging legend, tables
 * and footers) and the same vector shapes (bars, aging bar, forecast band, line and points), with
 * fixed coordinates instead of a layout engine. Run as its own process (like the PDF process) so its peak memory
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

/** The report's words for the aging buckets and its axis maximum: as the PDF components print them. */
const agingLabels: Record<string, string> = {
  current: 'Current',
  '1-30': '1-30 days',
  '31-60': '31-60 days',
  '61-90': '61-90 days',
  'over-90': 'Over 90 days',
};
const niceMax = (value: number) => {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 2.5, 5, 10].find((m) => m * power >= value) ?? 10) * power;
};

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

type Change = { ratio: number | null; label: string; goodWhen: 'up' | 'down' };

const card = (
  doc: Doc,
  box: { x: number; y: number; w: number },
  content: { label: string; value: string; changes: Change[]; note?: string },
) => {
  doc.roundedRect(box.x, box.y, box.w, 58, 4).fillAndStroke('#f8fafc', faint);
  doc
    .font('Helvetica')
    .fontSize(7.5)
    .fillColor(muted)
    .text(content.label.toUpperCase(), box.x + 8, box.y + 8);
  doc
    .font('Helvetica-Bold')
    .fontSize(13)
    .fillColor(ink)
    .text(content.value, box.x + 8, box.y + 19);
  content.changes.forEach(({ ratio, label, goodWhen }, i) => {
    if (ratio !== null)
      doc
        .polygon(
          [box.x + 8, box.y + 44 + i * 9],
          [box.x + 13, box.y + 44 + i * 9],
          [box.x + 10.5, box.y + 39 + i * 9],
        )
        .fill(ratio === 0 ? '#9ca3af' : ratio > 0 === (goodWhen === 'up') ? '#16a34a' : '#dc2626');
    doc
      .font('Helvetica')
      .fontSize(7.5)
      .fillColor(muted)
      .text(
        ratio === null ? `n/a ${label}` : `${signedShare(ratio)} ${label}`,
        box.x + 16,
        box.y + 38 + i * 9,
      );
  });
  if (content.note !== undefined)
    doc
      .font('Helvetica')
      .fontSize(7.5)
      .fillColor(muted)
      .text(content.note, box.x + 8, box.y + 40);
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

/** A chart's money axis: gridlines with their labels, top one `max`. */
const axis = (
  doc: Doc,
  chart: { x: number; y: number; w: number; h: number },
  max: number,
  currency: Currency,
) =>
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

/** A date label under a chart, centred on `x`. */
const xLabel = (doc: Doc, label: string, x: number, y: number) =>
  doc
    .font('Helvetica')
    .fontSize(6.5)
    .fillColor(muted)
    .text(label, x - 20, y, { width: 40, align: 'center' });

/** A chart's legend: a swatch and a label per series. */
const legend = (doc: Doc, y: number, items: [string, string][]) => {
  let x = M;
  doc.font('Helvetica').fontSize(7.5);
  for (const [label, color] of items) {
    doc.rect(x, y, 8, 8).fill(color);
    doc.fillColor(ink).text(label, x + 12, y, { lineBreak: false });
    x += 12 + doc.widthOfString(label) + 12;
  }
};

export const drawWeeklyWithPdfkit = (data: ReportData): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    // A bottom margin under the footer: a text below the margin would start a new page.
    const doc = new PDFDocument({
      size: 'A4',
      margins: { top: M, left: M, right: M, bottom: 10 },
      autoFirstPage: true,
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const { currency } = data.company;
    const title = data.frequency === 'weekly' ? 'Weekly Report' : 'Monthly Report';
    const unit = data.frequency === 'weekly' ? 'week' : 'month';
    const pages = data.forecast === null ? 2 : 3;

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
    const previous = `vs previous ${unit}`;
    const cards: { label: string; value: string; changes: Change[]; note?: string }[] = [
      {
        label: 'Revenue',
        value: money(data.revenue.current, currency),
        changes: [
          { ratio: changeOf(data.revenue.current, data.revenue.previous), label: previous, goodWhen: 'up' },
          {
            ratio: changeOf(data.revenue.current, data.revenue.lastYear),
            label: 'vs last year',
            goodWhen: 'up',
          },
        ],
      },
      {
        label: 'Collections',
        value: money(data.collections.current, currency),
        changes: [
          {
            ratio: changeOf(data.collections.current, data.collections.previous),
            label: previous,
            goodWhen: 'up',
          },
          {
            ratio: changeOf(data.collections.current, data.collections.lastYear),
            label: 'vs last year',
            goodWhen: 'up',
          },
        ],
      },
      {
        label: 'DSO',
        value: days(data.dso.current),
        changes: [
          {
            ratio:
              data.dso.current === null || data.dso.previous === null
                ? null
                : changeOf(data.dso.current, data.dso.previous),
            label: previous,
            goodWhen: 'down',
          },
        ],
      },
      {
        label: 'Open receivables',
        value: money(data.receivables.open, currency),
        changes: [
          {
            ratio: changeOf(data.receivables.open, data.previousReceivables.open),
            label: previous,
            goodWhen: 'down',
          },
        ],
      },
      {
        label: 'Overdue receivables',
        value: money(data.receivables.overdue, currency),
        changes: [
          {
            ratio: changeOf(data.receivables.overdue, data.previousReceivables.overdue),
            label: previous,
            goodWhen: 'down',
          },
        ],
      },
      {
        label: 'Open invoices',
        value: count(data.receivables.openInvoices),
        changes: [],
        note: `${count(data.chase.overdueInvoices)} overdue and still open`,
      },
    ];
    cards.forEach((content, i) =>
      card(
        doc,
        { x: M + (i % 3) * (cardWidth + 6), y: M + 80 + Math.floor(i / 3) * 66, w: cardWidth },
        content,
      ),
    );

    // Revenue against collections: a pair of bars per period with a money axis, labels and legend.
    let y = sectionTitle(
      doc,
      M + 220,
      'Revenue and collections',
      `The last ${data.trend.length} ${unit}s, this ${unit} last.`,
    );
    const chart = { x: M + 48, y, w: W - 48, h: 130 };
    const max = niceMax(Math.max(...data.trend.flatMap((p) => [p.revenue, p.collections])));
    axis(doc, chart, max, currency);
    const slot = chart.w / data.trend.length;
    data.trend.forEach((point, i) => {
      const center = chart.x + slot * i + slot / 2;
      const bar = (value: number, x: number, color: string) =>
        doc.rect(x, chart.y + chart.h - (value / max) * chart.h, 16, (value / max) * chart.h).fill(color);
      bar(point.revenue, center - 17, accent);
      bar(point.collections, center + 1, accentSoft);
      xLabel(
        doc,
        data.frequency === 'weekly' ? shortDate(point.start) : shortMonth(point.start),
        center,
        chart.y + chart.h + 4,
      );
    });
    legend(doc, chart.y + chart.h + 16, [
      ['Revenue (invoiced)', accent],
      ['Collections (payments)', accentSoft],
    ]);
    y = table(
      doc,
      chart.y + chart.h + 32,
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

    // Aging: one stacked bar and its legend (label, amount, share and count per bucket).
    y = sectionTitle(
      doc,
      y + 16,
      'Receivables by age',
      `Open ${money(data.receivables.open, currency)}, of which ${money(data.receivables.overdue, currency)} overdue, at the end of ${longDate(data.period.end)}.`,
    );
    const total = data.receivables.aging.reduce((sum, b) => sum + Math.max(0, b.amount), 0);
    let x = M;
    data.receivables.aging.forEach((bucket, i) => {
      const w = (Math.max(0, bucket.amount) / Math.max(1, total)) * W;
      doc.rect(x, y, w, 16).fill(agingColors[i] ?? faint);
      x += w;
      const lx = M + (W / 5) * i;
      doc.rect(lx, y + 23, 8, 8).fill(agingColors[i] ?? faint);
      doc
        .font('Helvetica')
        .fontSize(7.5)
        .fillColor(muted)
        .text(agingLabels[bucket.bucket] ?? bucket.bucket, lx + 12, y + 22);
      doc
        .font('Helvetica-Bold')
        .fontSize(9)
        .fillColor(ink)
        .text(money(bucket.amount, currency), lx + 12, y + 31);
      doc
        .font('Helvetica')
        .fontSize(7.5)
        .fillColor(muted)
        .text(`${share(total === 0 ? 0 : bucket.amount / total)} - ${bucket.invoices} inv.`, lx + 12, y + 41);
    });
    footer(doc, data, 1, pages);

    doc.addPage();
    header(doc, data, title);
    const { habits } = data;
    y = sectionTitle(
      doc,
      M + 50,
      'Customers whose payment habits changed',
      `Average days late of payments ${periodLabel(habits.windows.before, 'weekly')} against ` +
        `${periodLabel(habits.windows.after, 'weekly')}, moved by 10 days or more` +
        (habits.total > habits.changes.length
          ? ` (${habits.changes.length} largest of ${habits.total}).`
          : '.'),
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
      habits.changes.map((c) => [
        c.name,
        days(c.daysLateBefore),
        days(c.daysLateAfter),
        `${c.change > 0 ? '+' : ''}${days(c.change)}`,
      ]),
    );
    y = sectionTitle(
      doc,
      y + 16,
      'Invoices to chase first',
      `Overdue at ${longDate(data.period.end)} and still open, ranked by balance x days overdue (${data.chase.invoices.length} of ${data.chase.overdueInvoices}).`,
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
        count(i.daysOverdue),
        money(i.balance, currency),
      ]),
    );
    footer(doc, data, 2, pages);

    const { forecast } = data;
    if (forecast !== null) {
      doc.addPage();
      header(doc, data, title);
      const weeks = forecast.weeks;
      y = sectionTitle(
        doc,
        M + 50,
        'Collections forecast',
        `Expected cash-in from the ${money(forecast.openBalance, currency)} open, ${money(
          weeks.reduce((sum, w) => sum + w.mean, 0),
          currency,
        )} over the next ${weeks.length} weeks (forecast of ${longDate(forecast.asOf)}).`,
      );
      const plot = { x: M + 48, y, w: W - 48, h: 110 };
      const top = niceMax(Math.max(...weeks.map((w) => w.upper80)));
      axis(doc, plot, top, currency);
      const step = plot.w / Math.max(1, weeks.length);
      const point = (i: number, v: number): [number, number] => [
        plot.x + step * i + step / 2,
        plot.y + plot.h - (v / top) * plot.h,
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
      weeks.forEach((w, i) => {
        doc.circle(...point(i, w.mean), 2).fill(accent);
        xLabel(doc, shortDate(w.start), point(i, 0)[0], plot.y + plot.h + 4);
      });
      legend(doc, plot.y + plot.h + 16, [
        ['Expected collections', accent],
        ['80% range', accentSoft],
      ]);
      table(
        doc,
        plot.y + plot.h + 32,
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
      footer(doc, data, 3, pages);
    }
    doc.end();
  });

export type DrawTiming = { ms: number; cpuMs: number; bytes: number };

/** A request to the baseline's process: warm up on `warmUp` (as the PDF process does), then draw. */
export type BaselineRequest = {
  data: ReportData;
  renders: number;
  warmUp: ReportData;
  warmUpRenders: number;
};
export type BaselineReply = {
  timings: DrawTiming[];
  maxRssKb: number;
  /** The process's time and CPU from its start until its warm-up was done. */
  warmUp: { ms: number; cpuMs: number };
};

/**
 * As a child process: draws the warm-up report `warmUpRenders` times (like the PDF process at its
 * start, pdf-warm-up.ts), then the report it is sent `renders` times in a row, answering each
 * drawing's wall-clock and CPU time, its warm-up and the process's peak memory.
 */
if (process.send)
  process.on('message', (request: BaselineRequest) => {
    const timings: DrawTiming[] = [];
    const draw = async (data: ReportData) => {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const bytes = await drawWeeklyWithPdfkit(data);
      const used = process.cpuUsage(cpu);
      return {
        ms: performance.now() - started,
        cpuMs: (used.user + used.system) / 1000,
        bytes: bytes.length,
      };
    };
    const run = async (): Promise<BaselineReply> => {
      for (let i = 0; i < request.warmUpRenders; i += 1) await draw(request.warmUp);
      const used = process.cpuUsage();
      const warmUp = { ms: performance.now(), cpuMs: (used.user + used.system) / 1000 };
      for (let i = 0; i < request.renders; i += 1) timings.push(await draw(request.data));
      return { timings, maxRssKb: peakRssKb(), warmUp };
    };
    run().then(
      (reply) => process.send?.(reply),
      (error: unknown) => process.send?.({ error: String(error) }),
    );
  });
