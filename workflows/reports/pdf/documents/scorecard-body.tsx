import type { HealthDriver } from '../../report-data/health-score';
import type { ScorecardData } from '../../report-data/scorecard-data';
import { AgingBar } from '../components/charts';
import { DataTable } from '../components/data-table';
import { Section } from '../components/report-page';
import { colors, text } from '../components/theme';
import { days, money, share } from '../pdf-format';
import { pdf } from '../react-pdf';

/** The words for a score: 75 and up healthy, 50 to 74 fair, below 50 at risk. */
export const ratingOf = (score: number) => (score >= 75 ? 'Healthy' : score >= 50 ? 'Fair' : 'At risk');
const ratingColor = (score: number) => (score >= 75 ? colors.good : score >= 50 ? '#f59e0b' : colors.bad);

/** A half-circle gauge filled in proportion to the score. */
const Gauge = ({ score }: { score: number }) => {
  const r = 50;
  const cx = 60;
  const cy = 58;
  const angle = Math.PI * (1 - Math.min(100, Math.max(0, score)) / 100);
  const end = `${(cx + r * Math.cos(angle)).toFixed(2)} ${(cy - r * Math.sin(angle)).toFixed(2)}`;
  return (
    <pdf.Svg width={120} height={66}>
      <pdf.Path
        d={`M ${cx - r} ${cy} A ${r} ${r} 0 0 1 ${cx + r} ${cy}`}
        stroke={colors.faint}
        strokeWidth={10}
        fill="none"
      />
      {score > 0 && (
        <pdf.Path
          d={`M ${cx - r} ${cy} A ${r} ${r} 0 0 1 ${end}`}
          stroke={ratingColor(score)}
          strokeWidth={10}
          fill="none"
        />
      )}
    </pdf.Svg>
  );
};

const figureOf = (driver: HealthDriver) => {
  if (driver.value === null) return 'no data';
  if (driver.id === 'trend') return `${driver.value > 0 ? '+' : ''}${days(driver.value)}`;
  return driver.unit === 'days' ? days(driver.value) : share(driver.value);
};
const boundOf = (driver: HealthDriver, value: number) =>
  driver.id === 'trend'
    ? `${value > 0 ? '+' : ''}${days(value)}`
    : driver.unit === 'days'
      ? days(value)
      : share(value);

const DriverBar = ({ driver }: { driver: HealthDriver }) => (
  <pdf.Svg width={70} height={8}>
    <pdf.Rect x={0} y={0} width={70} height={8} fill={colors.faint} />
    <pdf.Rect x={0} y={0} width={(70 * driver.points) / driver.maxPoints} height={8} fill={colors.accent} />
  </pdf.Svg>
);

/** The health score, its drivers with their points, and where the receivables stand. */
export const ScorecardBody = ({ data }: { data: ScorecardData }) => {
  const { currency } = data.company;
  return (
    <pdf.View>
      <pdf.View wrap={false} style={{ flexDirection: 'row', alignItems: 'center', marginBottom: 14 }}>
        <Gauge score={data.score} />
        <pdf.View style={{ marginLeft: 16 }}>
          <pdf.Text style={{ ...text.muted, ...text.small }}>HEALTH SCORE</pdf.Text>
          <pdf.Text style={{ ...text.bold, fontSize: 26 }}>{`${data.score} / 100`}</pdf.Text>
          <pdf.Text style={{ ...text.bold, color: ratingColor(data.score) }}>{ratingOf(data.score)}</pdf.Text>
        </pdf.View>
      </pdf.View>
      <Section
        title="What makes the score"
        note="Each driver earns its full points at or better than the first bound and none at or worse than the second; a driver without data earns half."
      >
        {data.drivers.map((driver) => (
          <pdf.View
            key={driver.id}
            style={{
              flexDirection: 'row',
              alignItems: 'center',
              paddingVertical: 4,
              borderBottomWidth: 0.5,
              borderBottomColor: colors.faint,
            }}
          >
            <pdf.Text style={{ width: '34%' }}>{driver.label}</pdf.Text>
            <pdf.Text style={{ width: '14%', textAlign: 'right', ...text.bold }}>{figureOf(driver)}</pdf.Text>
            <pdf.Text style={{ width: '24%', textAlign: 'right', ...text.small, ...text.muted }}>
              {`full at ${boundOf(driver, driver.good)}, none at ${boundOf(driver, driver.poor)}`}
            </pdf.Text>
            <pdf.View style={{ width: '16%', alignItems: 'flex-end' }}>
              <DriverBar driver={driver} />
            </pdf.View>
            <pdf.Text style={{ width: '12%', textAlign: 'right', ...text.bold }}>
              {`${driver.points} / ${driver.maxPoints} pts`}
            </pdf.Text>
          </pdf.View>
        ))}
      </Section>
      <Section
        title="Receivables"
        note={`Open ${money(data.receivables.open, currency)}, of which ${money(data.receivables.overdue, currency)} overdue.`}
      >
        <AgingBar aging={data.receivables.aging} currency={currency} />
      </Section>
      <Section title="Largest balances">
        <DataTable
          columns={[
            { title: 'Customer', width: 60 },
            { title: 'Open balance', width: 22, align: 'right' },
            { title: 'Share', width: 18, align: 'right' },
          ]}
          rows={data.topCustomers.map((c) => [
            c.name,
            money(c.openBalance, currency),
            share(data.receivables.open === 0 ? null : c.openBalance / data.receivables.open),
          ])}
          empty="No customer owes anything."
        />
      </Section>
    </pdf.View>
  );
};
