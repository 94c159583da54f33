import type { BenchmarkMetric, BenchmarksData } from '../../report-data/benchmarks-data';
import { DataTable } from '../components/data-table';
import { Section } from '../components/report-page';
import { colors, text } from '../components/theme';
import { days, longMonth, percent } from '../pdf-format';
import { pdf } from '../react-pdf';

const shown = (metric: BenchmarkMetric, value: number | null) =>
  metric.unit === 'days' ? days(value) : percent(value);

/** The peers' middle half as a box, their median as a line, the company as a dot. */
const RangeBar = ({ metric }: { metric: BenchmarkMetric }) => {
  const width = 150;
  const values = [metric.p25, metric.median, metric.p75, metric.company].filter(
    (v): v is number => v !== null,
  );
  if (values.length === 0 || metric.p25 === null || metric.p75 === null || metric.median === null)
    return <pdf.Svg width={width} height={12} />;
  const low = Math.min(0, ...values);
  const high = Math.max(...values) * 1.15 || 1;
  const x = (v: number) => ((v - low) / (high - low)) * width;
  return (
    <pdf.Svg width={width} height={12}>
      <pdf.Line x1={0} x2={width} y1={6} y2={6} stroke={colors.faint} strokeWidth={1} />
      <pdf.Rect
        x={x(metric.p25)}
        y={2}
        width={Math.max(1, x(metric.p75) - x(metric.p25))}
        height={8}
        fill={colors.accentSoft}
      />
      <pdf.Line
        x1={x(metric.median)}
        x2={x(metric.median)}
        y1={1}
        y2={11}
        stroke={colors.accent}
        strokeWidth={1.5}
      />
      {metric.company !== null && <pdf.Circle cx={x(metric.company)} cy={6} r={3.5} fill={colors.ink} />}
    </pdf.Svg>
  );
};

/** The company against its anonymised peers, metric by metric. */
export const BenchmarksBody = ({ data }: { data: BenchmarksData }) => (
  <pdf.View>
    <pdf.Text style={{ ...text.muted, marginBottom: 10 }}>
      {`${longMonth(data.period.start)}: ${data.company.name} against ${data.peers} anonymised companies in ` +
        `${data.sector.name} (NAICS ${data.sector.code}). Peers are never named; a figure is shown only with at least 5 of them.`}
    </pdf.Text>
    <Section title="How you compare">
      <DataTable
        columns={[
          { title: 'Metric', width: 30 },
          { title: 'You', width: 14, align: 'right' },
          { title: 'Peers 25th pct', width: 14, align: 'right' },
          { title: 'Peers median', width: 14, align: 'right' },
          { title: 'Peers 75th pct', width: 14, align: 'right' },
          { title: 'Better than', width: 14, align: 'right' },
        ]}
        rows={data.metrics.map((m) => [
          `${m.label} (${m.better} is better)`,
          shown(m, m.company),
          shown(m, m.p25),
          shown(m, m.median),
          shown(m, m.p75),
          m.betterThan === null ? 'n/a' : `${m.betterThan}% of peers`,
        ])}
        empty=""
      />
    </Section>
    <Section
      title="Where you stand"
      note="Shaded: the middle half of your peers; line: their median; dot: you."
    >
      {data.metrics.map((m) => (
        <pdf.View key={m.id} style={{ flexDirection: 'row', alignItems: 'center', marginBottom: 6 }}>
          <pdf.Text style={{ width: 200 }}>{m.label}</pdf.Text>
          <RangeBar metric={m} />
        </pdf.View>
      ))}
    </Section>
  </pdf.View>
);
