import type { Style } from '@react-pdf/types';
import type { Currency } from '../../../../contracts/events/tenant';
import type { AgingFigure, ForecastWeek, TrendPoint } from '../../report-data/report-data';
import { compactMoney, money, share, shortDate, shortMonth } from '../pdf-format';
import { pdf } from '../react-pdf';
import { ASCENT, boxStyle, drawText, fitsWidth, widthOf, type Painter, type Run } from './paint';
import { colors, CONTENT_WIDTH, PAGE_PADDING, text } from './theme';

/**
 * The reports' charts, drawn as vectors: bars of revenue against collections, one stacked bar of
 * the aging buckets, and the collections forecast as a line in its 80% band. Each chart is one
 * react-pdf Canvas drawn with pdfkit's path and text calls (components/paint.ts): shapes stay
 * vectors, and axis labels and legends are real text, sharp and searchable, placed exactly where
 * react-pdf's Svg and Text nodes put them before (docs/adr/0036-report-content.md).
 */

/** The smallest 1, 2, 2.5 or 5 times a power of ten at or above `value`. */
export const niceMax = (value: number) => {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 2.5, 5, 10].find((m) => m * power >= value) ?? 10) * power;
};

const AXIS_WIDTH = 48;
const X_LABELS_HEIGHT = 14;
/** Room above the plot for the top axis label. */
const TOP = 6;
/** How far above its gridline an axis label's glyphs start (6.5 pt Helvetica, centred on the line). */
const AXIS_LABEL_RISE = 3.35;
/** A swatch before each legend label: 8 pt, 4 pt from its label, 12 pt after the label. */
const SWATCH = 8;
const SWATCH_GAP = 4;
const LEGEND_GAP = 12;
/** The legend's line under the chart: 4 pt below it, a line of 7.5 pt. */
const LEGEND_TOP = 4;
const LEGEND_LINE = text.small.fontSize * 1.1;

const axisRun: Run = { size: 6.5, color: colors.muted };
const legendRun: Run = { size: text.small.fontSize, color: colors.ink };

/** The gridlines of a chart's money axis, at 0, a quarter, half, three quarters and all of `max`. */
const paintGridlines = (painter: Painter, height: number, width: number) => {
  painter.lineWidth(0.5).strokeColor(colors.faint);
  for (const step of [0, 0.25, 0.5, 0.75, 1]) {
    const y = TOP + height - step * height;
    painter.moveTo(AXIS_WIDTH, y).lineTo(width, y);
  }
  painter.stroke();
};

/**
 * The money axis's labels, right-aligned 4 pt left of the plot, each centred on its gridline
 * (6.5 pt Helvetica: its glyphs start AXIS_LABEL_RISE above the line).
 */
const paintYLabels = (
  painter: Painter,
  { max, height, currency }: { max: number; height: number; currency: Currency },
) =>
  [1, 0.75, 0.5, 0.25, 0].forEach((step, i) =>
    drawText(painter, compactMoney(max * step, currency), {
      run: axisRun,
      x: AXIS_WIDTH - 4,
      top: TOP - AXIS_LABEL_RISE + (i * height) / 4,
      align: 'right',
    }),
  );

/** A label under the plot (an SVG text's baseline 10 pt under it), centred on `x`. */
const paintXLabel = (painter: Painter, label: string, at: { x: number; height: number }) =>
  drawText(painter, label, {
    run: axisRun,
    x: at.x,
    top: TOP + at.height + 10 - ASCENT * axisRun.size,
    align: 'center',
  });

/** The legend under the chart: a swatch, then its label, for each series. */
const paintLegend = (painter: Painter, top: number, items: { label: string; color: string }[]) => {
  let x = 0;
  for (const item of items) {
    painter.rect(x, top + (LEGEND_LINE - SWATCH) / 2, SWATCH, SWATCH).fill(item.color);
    drawText(painter, item.label, { run: legendRun, x: x + SWATCH + SWATCH_GAP, top: top });
    x += SWATCH + SWATCH_GAP + widthOf(item.label, legendRun) + LEGEND_GAP;
  }
};

/** A chart's height: the plot, its date labels and its legend. */
const chartHeight = (plotHeight: number) => TOP + plotHeight + X_LABELS_HEIGHT + LEGEND_TOP + LEGEND_LINE;

const REVENUE_HEIGHT = 130;
const revenueLegend = [
  { label: 'Revenue (invoiced)', color: colors.accent },
  { label: 'Collections (payments)', color: colors.accentSoft },
];

/**
 * Revenue and collections side by side for each period of the trend, the reported one last: one
 * Canvas of vector shapes and one-line labels (components/paint.ts), under a money axis.
 */
export const RevenueCollectionsChart = (props: {
  trend: TrendPoint[];
  frequency: 'weekly' | 'monthly';
  currency: Currency;
}) => {
  const height = REVENUE_HEIGHT;
  const width = CONTENT_WIDTH;
  const plot = width - AXIS_WIDTH;
  const max = niceMax(Math.max(...props.trend.flatMap((p) => [p.revenue, p.collections])));
  const slot = plot / Math.max(1, props.trend.length);
  const bar = Math.min(18, slot * 0.32);
  const y = (value: number) => TOP + height - (Math.max(0, value) / max) * height;
  const paint = (painter: Painter) => {
    paintGridlines(painter, height, width);
    props.trend.forEach((point, i) => {
      const center = AXIS_WIDTH + slot * i + slot / 2;
      painter
        .rect(center - bar - 1, y(point.revenue), bar, TOP + height - y(point.revenue))
        .fill(colors.accent);
      painter
        .rect(center + 1, y(point.collections), bar, TOP + height - y(point.collections))
        .fill(colors.accentSoft);
      paintXLabel(painter, props.frequency === 'weekly' ? shortDate(point.start) : shortMonth(point.start), {
        x: center,
        height,
      });
    });
    paintYLabels(painter, { max, height, currency: props.currency });
    paintLegend(painter, TOP + height + X_LABELS_HEIGHT + LEGEND_TOP, revenueLegend);
    return null;
  };
  return <pdf.Canvas style={boxStyle(width, chartHeight(height))} paint={paint} />;
};

export const agingLabels: Record<AgingFigure['bucket'], string> = {
  current: 'Current',
  '1-30': '1-30 days',
  '31-60': '31-60 days',
  '61-90': '61-90 days',
  'over-90': 'Over 90 days',
};

const AGING_BAR = 16;
/** The legend's swatches, 6 pt under the bar and 1 pt lower than the top of their labels. */
const AGING_SWATCH_TOP = AGING_BAR + 7;
const AGING_SVG_HEIGHT = AGING_SWATCH_TOP + SWATCH;
const agingLegendStyle: Style = { flexDirection: 'row', marginTop: AGING_BAR + 6 - AGING_SVG_HEIGHT };
const agingLabelStyle: Style = { ...text.small, ...text.muted, flex: 1, paddingLeft: SWATCH + SWATCH_GAP };
const agingAmountStyle: Style = { ...text.bold, fontSize: 9, color: colors.ink };

/** The open receivables as one bar split by age, laid out by react-pdf (see AgingBar). */
const AgingBarLaidOut = (props: { aging: AgingFigure[]; currency: Currency }) => {
  const total = props.aging.reduce((sum, b) => sum + Math.max(0, b.amount), 0);
  const width = CONTENT_WIDTH;
  let x = 0;
  return (
    <pdf.View>
      <pdf.Svg width={width} height={AGING_SVG_HEIGHT}>
        {props.aging.map((bucket, i) => (
          <pdf.Rect
            key={`swatch ${bucket.bucket}`}
            x={(i * width) / props.aging.length}
            y={AGING_SWATCH_TOP}
            width={SWATCH}
            height={SWATCH}
            fill={colors.aging[i] ?? colors.neutral}
          />
        ))}
        {total === 0 ? (
          <pdf.Rect x={0} y={0} width={width} height={AGING_BAR} fill={colors.faint} />
        ) : (
          props.aging.map((bucket, i) => {
            const w = (Math.max(0, bucket.amount) / total) * width;
            const rect = (
              <pdf.Rect
                key={bucket.bucket}
                x={x}
                y={0}
                width={w}
                height={AGING_BAR}
                fill={colors.aging[i] ?? colors.neutral}
              />
            );
            x += w;
            return rect;
          })
        )}
      </pdf.Svg>
      <pdf.View style={agingLegendStyle}>
        {props.aging.map((bucket) => (
          <pdf.Text key={bucket.bucket} style={agingLabelStyle}>
            {`${agingLabels[bucket.bucket]}\n`}
            <pdf.Text style={agingAmountStyle}>{`${money(bucket.amount, props.currency)}\n`}</pdf.Text>
            {`${share(total === 0 ? 0 : bucket.amount / total)} - ${bucket.invoices} inv.`}
          </pdf.Text>
        ))}
      </pdf.View>
    </pdf.View>
  );
};

const FORECAST_HEIGHT = 110;
const forecastLegend = [
  { label: 'Expected collections', color: colors.accent },
  { label: '80% range', color: colors.accentSoft },
];

/** Expected cash-in per week: the forecast's mean as a line inside its 80% band, one Canvas. */
export const ForecastChart = (props: { weeks: ForecastWeek[]; currency: Currency }) => {
  const height = FORECAST_HEIGHT;
  const width = CONTENT_WIDTH;
  const plot = width - AXIS_WIDTH;
  const max = niceMax(Math.max(...props.weeks.map((w) => w.upper80)));
  const step = plot / Math.max(1, props.weeks.length);
  const xOf = (i: number) => AXIS_WIDTH + step * i + step / 2;
  const yOf = (value: number) => TOP + height - (Math.max(0, value) / max) * height;
  const paint = (painter: Painter) => {
    paintGridlines(painter, height, width);
    const upper = props.weeks.map((w, i): [number, number] => [xOf(i), yOf(w.upper80)]);
    const lower = props.weeks.map((w, i): [number, number] => [xOf(i), yOf(w.lower80)]).reverse();
    if (props.weeks.length > 0) {
      painter
        .polygon(...upper, ...lower)
        .fillOpacity(0.45)
        .fill(colors.accentSoft);
      painter.fillOpacity(1);
      props.weeks.forEach((w, i) =>
        i === 0 ? painter.moveTo(xOf(i), yOf(w.mean)) : painter.lineTo(xOf(i), yOf(w.mean)),
      );
      painter.lineWidth(1.5).stroke(colors.accent);
    }
    props.weeks.forEach((w, i) => {
      painter.circle(xOf(i), yOf(w.mean), 2).fill(colors.accent);
      paintXLabel(painter, shortDate(w.start), { x: xOf(i), height });
    });
    paintYLabels(painter, { max, height, currency: props.currency });
    paintLegend(painter, TOP + height + X_LABELS_HEIGHT + LEGEND_TOP, forecastLegend);
    return null;
  };
  return <pdf.Canvas style={boxStyle(width, chartHeight(height))} paint={paint} />;
};

/** The legend's columns, as wide as each other across the page's content box (595.28 pt wide). */
const LEGEND_WIDTH = 595.28 - 2 * PAGE_PADDING;
const AGING_LEGEND_TOP = AGING_BAR + 6;
const agingLabelRun: Run = { size: text.small.fontSize, color: colors.muted };
const agingAmountRun: Run = { size: 9, bold: true, color: colors.ink };
/** A legend entry's three lines: label (7.5 pt, 8.25 high), amount (9 pt, 9.9 high), share. */
const AGING_LINES = [0, 8.25, 8.25 + 9.9];
const AGING_LEGEND_HEIGHT = 8.25 + 9.9 + 8.25;

/**
 * The open receivables as one bar split by age, with each bucket's amount and share below: one
 * Canvas (components/paint.ts) when each legend line fits its column, else laid out by react-pdf.
 */
export const AgingBar = (props: { aging: AgingFigure[]; currency: Currency }) => {
  const total = props.aging.reduce((sum, b) => sum + Math.max(0, b.amount), 0);
  const legend = props.aging.map((bucket) => ({
    label: agingLabels[bucket.bucket],
    amount: money(bucket.amount, props.currency),
    share: `${share(total === 0 ? 0 : bucket.amount / total)} - ${bucket.invoices} inv.`,
  }));
  const column = LEGEND_WIDTH / Math.max(1, props.aging.length);
  const inner = column - SWATCH - SWATCH_GAP;
  const fits = legend.every(
    (entry) =>
      fitsWidth([entry.label, entry.share], agingLabelRun, inner) &&
      fitsWidth([entry.amount], agingAmountRun, inner),
  );
  if (!fits) return <AgingBarLaidOut aging={props.aging} currency={props.currency} />;
  const width = CONTENT_WIDTH;
  const paint = (painter: Painter) => {
    if (total === 0) painter.rect(0, 0, width, AGING_BAR).fill(colors.faint);
    else {
      let x = 0;
      props.aging.forEach((bucket, i) => {
        const w = (Math.max(0, bucket.amount) / total) * width;
        painter.rect(x, 0, w, AGING_BAR).fill(colors.aging[i] ?? colors.neutral);
        x += w;
      });
    }
    legend.forEach((entry, i) => {
      painter
        .rect((i * width) / props.aging.length, AGING_SWATCH_TOP, SWATCH, SWATCH)
        .fill(colors.aging[i] ?? colors.neutral);
      const x = i * column + SWATCH + SWATCH_GAP;
      const [first = 0, second = 0, third = 0] = AGING_LINES;
      drawText(painter, entry.label, { run: agingLabelRun, x: x, top: AGING_LEGEND_TOP + first });
      drawText(painter, entry.amount, { run: agingAmountRun, x: x, top: AGING_LEGEND_TOP + second });
      drawText(painter, entry.share, { run: agingLabelRun, x: x, top: AGING_LEGEND_TOP + third });
    });
    return null;
  };
  return <pdf.Canvas style={boxStyle(width, AGING_LEGEND_TOP + AGING_LEGEND_HEIGHT)} paint={paint} />;
};
