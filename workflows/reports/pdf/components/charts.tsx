import type { Style } from '@react-pdf/types';
import { Fragment } from 'react';
import type { Currency } from '../../../../contracts/events/tenant';
import type { AgingFigure, ForecastWeek, TrendPoint } from '../../report-data/report-data';
import { compactMoney, money, share, shortDate, shortMonth } from '../pdf-format';
import { pdf } from '../react-pdf';
import { textWidth } from './text-width';
import { colors, CONTENT_WIDTH, text } from './theme';

/**
 * The reports' charts, drawn as vectors with react-pdf's Svg primitives: bars of revenue against
 * collections, one stacked bar of the aging buckets, and the collections forecast as a line in
 * its 80% band. Axis labels are SVG text, so they stay sharp and searchable.
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
const axisLabelsStyle: Style = {
  position: 'absolute',
  left: 0,
  width: AXIS_WIDTH - 4,
  textAlign: 'right',
  fontSize: 6.5,
  color: colors.muted,
};

/** The gridlines of a chart's money axis, at 0, a quarter, half, three quarters and all of `max`. */
const Gridlines = (props: { height: number; width: number }) => (
  <>
    {[0, 0.25, 0.5, 0.75, 1].map((step) => {
      const y = props.height - step * props.height;
      return (
        <pdf.Line
          key={step}
          x1={AXIS_WIDTH}
          x2={props.width}
          y1={y}
          y2={y}
          stroke={colors.faint}
          strokeWidth={0.5}
        />
      );
    })}
  </>
);

/**
 * The axis's labels, top one first: one text, a line per gridline (its line as high as the
 * gridlines are apart, its glyphs at the line's top), beside the drawing.
 */
const YAxisLabels = (props: { max: number; height: number; currency: Currency }) => (
  <pdf.Text
    style={{
      ...axisLabelsStyle,
      top: TOP - AXIS_LABEL_RISE,
      lineHeight: `${props.height / 4}pt`,
    }}
  >
    {[1, 0.75, 0.5, 0.25, 0].map((step) => compactMoney(props.max * step, props.currency)).join('\n')}
  </pdf.Text>
);

/** A swatch before each legend label: 8 pt, 4 pt from its label, 12 pt after the label. */
const SWATCH = 8;
const SWATCH_GAP = 4;
const LEGEND_GAP = 12;
const xLabelStyle: Style = { fontSize: 6.5 };
const legendSwatchesStyle: Style = { marginTop: 4 };
const legendStyle: Style = { flexDirection: 'row', marginTop: -text.small.fontSize * 1.1 };
const legendLabelStyle: Style = { ...text.small, paddingLeft: SWATCH + SWATCH_GAP, marginRight: LEGEND_GAP };

/** The chart's legend: its swatches one drawing, its labels a row of texts beside them. */
const Legend = ({ items }: { items: { label: string; color: string }[] }) => {
  const line = text.small.fontSize * 1.1;
  let x = 0;
  return (
    <>
      <pdf.Svg width={CONTENT_WIDTH} height={line} style={legendSwatchesStyle}>
        {items.map((item) => {
          const swatch = (
            <pdf.Rect
              key={item.label}
              x={x}
              y={(line - SWATCH) / 2}
              width={SWATCH}
              height={SWATCH}
              fill={item.color}
            />
          );
          x += SWATCH + SWATCH_GAP + (textWidth(item.label, text.small.fontSize) ?? 0) + LEGEND_GAP;
          return swatch;
        })}
      </pdf.Svg>
      <pdf.View style={legendStyle}>
        {items.map((item) => (
          <pdf.Text key={item.label} style={legendLabelStyle}>
            {item.label}
          </pdf.Text>
        ))}
      </pdf.View>
    </>
  );
};

/** Revenue and collections side by side for each period of the trend, the reported one last. */
export const RevenueCollectionsChart = (props: {
  trend: TrendPoint[];
  frequency: 'weekly' | 'monthly';
  currency: Currency;
}) => {
  const height = 130;
  const width = CONTENT_WIDTH;
  const plot = width - AXIS_WIDTH;
  const max = niceMax(Math.max(...props.trend.flatMap((p) => [p.revenue, p.collections])));
  const slot = plot / Math.max(1, props.trend.length);
  const bar = Math.min(18, slot * 0.32);
  const y = (value: number) => height - (Math.max(0, value) / max) * height;
  return (
    <pdf.View>
      <pdf.Svg width={width} height={TOP + height + X_LABELS_HEIGHT}>
        <pdf.G transform={`translate(0, ${TOP})`}>
          <Gridlines height={height} width={width} />
          {props.trend.map((point, i) => {
            const center = AXIS_WIDTH + slot * i + slot / 2;
            return (
              <Fragment key={point.start}>
                <pdf.Rect
                  x={center - bar - 1}
                  y={y(point.revenue)}
                  width={bar}
                  height={height - y(point.revenue)}
                  fill={colors.accent}
                />
                <pdf.Rect
                  x={center + 1}
                  y={y(point.collections)}
                  width={bar}
                  height={height - y(point.collections)}
                  fill={colors.accentSoft}
                />
                <pdf.Text
                  x={center}
                  y={height + 10}
                  textAnchor="middle"
                  style={xLabelStyle}
                  fill={colors.muted}
                >
                  {props.frequency === 'weekly' ? shortDate(point.start) : shortMonth(point.start)}
                </pdf.Text>
              </Fragment>
            );
          })}
        </pdf.G>
      </pdf.Svg>
      <YAxisLabels max={max} height={height} currency={props.currency} />
      <Legend
        items={[
          { label: 'Revenue (invoiced)', color: colors.accent },
          { label: 'Collections (payments)', color: colors.accentSoft },
        ]}
      />
    </pdf.View>
  );
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

/** The open receivables as one bar split by age, with each bucket's amount and share below. */
export const AgingBar = (props: { aging: AgingFigure[]; currency: Currency }) => {
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

/** Expected cash-in per week: the forecast's mean as a line inside its 80% band. */
export const ForecastChart = (props: { weeks: ForecastWeek[]; currency: Currency }) => {
  const height = 110;
  const width = CONTENT_WIDTH;
  const plot = width - AXIS_WIDTH;
  const max = niceMax(Math.max(...props.weeks.map((w) => w.upper80)));
  const step = plot / Math.max(1, props.weeks.length);
  const xOf = (i: number) => AXIS_WIDTH + step * i + step / 2;
  const yOf = (value: number) => height - (Math.max(0, value) / max) * height;
  const upper = props.weeks.map((w, i) => `${xOf(i)},${yOf(w.upper80)}`);
  const lower = props.weeks.map((w, i) => `${xOf(i)},${yOf(w.lower80)}`).reverse();
  return (
    <pdf.View>
      <pdf.Svg width={width} height={TOP + height + X_LABELS_HEIGHT}>
        <pdf.G transform={`translate(0, ${TOP})`}>
          <Gridlines height={height} width={width} />
          <pdf.Polygon points={[...upper, ...lower].join(' ')} fill={colors.accentSoft} fillOpacity={0.45} />
          <pdf.Polyline
            points={props.weeks.map((w, i) => `${xOf(i)},${yOf(w.mean)}`).join(' ')}
            stroke={colors.accent}
            strokeWidth={1.5}
            fill="none"
          />
          {props.weeks.map((w, i) => (
            <Fragment key={w.start}>
              <pdf.Circle cx={xOf(i)} cy={yOf(w.mean)} r={2} fill={colors.accent} />
              <pdf.Text
                x={xOf(i)}
                y={height + 10}
                textAnchor="middle"
                style={xLabelStyle}
                fill={colors.muted}
              >
                {shortDate(w.start)}
              </pdf.Text>
            </Fragment>
          ))}
        </pdf.G>
      </pdf.Svg>
      <YAxisLabels max={max} height={height} currency={props.currency} />
      <Legend
        items={[
          { label: 'Expected collections', color: colors.accent },
          { label: '80% range', color: colors.accentSoft },
        ]}
      />
    </pdf.View>
  );
};
