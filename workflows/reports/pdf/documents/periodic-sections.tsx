import type { Style } from '@react-pdf/types';
import type { ReportData } from '../../report-data/report-data';
import { AgingBar, ForecastChart, RevenueCollectionsChart } from '../components/charts';
import { DataTable } from '../components/data-table';
import { KpiCard, KpiRow } from '../components/kpi-card';
import { Section } from '../components/report-page';
import { text } from '../components/theme';
import { changeOf, count, days, longDate, money, periodLabel, shortDate } from '../pdf-format';
import { pdf } from '../react-pdf';

/**
 * The sections of a weekly or monthly report (and of an on-demand one, which picks among them):
 * the ids of contracts/api/reports.ts ReportSection, in print order.
 */
const introStyle: Style = { ...text.muted, marginBottom: 10 };
const tableGapStyle: Style = { marginTop: 8 };

const unit = (data: ReportData) => (data.frequency === 'weekly' ? 'week' : 'month');

export const PeriodIntro = ({ data }: { data: ReportData }) => (
  <pdf.Text style={introStyle}>
    {`Figures for ${periodLabel(data.period, data.frequency)}, compared with the previous ${unit(data)} ` +
      `(${periodLabel(data.previousPeriod, data.frequency)}) and the same ${unit(data)} last year ` +
      `(${periodLabel(data.lastYearPeriod, data.frequency)}).`}
  </pdf.Text>
);

export const SummarySection = ({ data }: { data: ReportData }) => {
  const { currency } = data.company;
  const previous = `vs previous ${unit(data)}`;
  return (
    <pdf.View wrap={false}>
      <KpiRow>
        <KpiCard
          label="Revenue"
          value={money(data.revenue.current, currency)}
          changes={[
            { ratio: changeOf(data.revenue.current, data.revenue.previous), label: previous, goodWhen: 'up' },
            {
              ratio: changeOf(data.revenue.current, data.revenue.lastYear),
              label: 'vs last year',
              goodWhen: 'up',
            },
          ]}
        />
        <KpiCard
          label="Collections"
          value={money(data.collections.current, currency)}
          changes={[
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
          ]}
        />
        <KpiCard
          label="DSO"
          value={days(data.dso.current)}
          changes={[
            {
              ratio:
                data.dso.current === null || data.dso.previous === null
                  ? null
                  : changeOf(data.dso.current, data.dso.previous),
              label: previous,
              goodWhen: 'down',
            },
          ]}
        />
      </KpiRow>
      <KpiRow>
        <KpiCard
          label="Open receivables"
          value={money(data.receivables.open, currency)}
          changes={[
            {
              ratio: changeOf(data.receivables.open, data.previousReceivables.open),
              label: previous,
              goodWhen: 'down',
            },
          ]}
        />
        <KpiCard
          label="Overdue receivables"
          value={money(data.receivables.overdue, currency)}
          changes={[
            {
              ratio: changeOf(data.receivables.overdue, data.previousReceivables.overdue),
              label: previous,
              goodWhen: 'down',
            },
          ]}
        />
        <KpiCard
          label="Open invoices"
          value={count(data.receivables.openInvoices)}
          changes={[]}
          note={`${count(data.chase.overdueInvoices)} overdue and still open`}
        />
      </KpiRow>
    </pdf.View>
  );
};

export const RevenueCollectionsSection = ({ data }: { data: ReportData }) => {
  const { currency } = data.company;
  return (
    <Section
      title="Revenue and collections"
      note={`The last ${data.trend.length} ${unit(data)}s, this ${unit(data)} last.`}
    >
      <RevenueCollectionsChart trend={data.trend} frequency={data.frequency} currency={currency} />
      <pdf.View style={tableGapStyle}>
        <DataTable
          columns={[
            { title: '', width: 28 },
            { title: `This ${unit(data)}`, width: 24, align: 'right' },
            { title: `Previous ${unit(data)}`, width: 24, align: 'right' },
            { title: 'Same period last year', width: 24, align: 'right' },
          ]}
          rows={[
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
          ]}
          empty=""
        />
      </pdf.View>
    </Section>
  );
};

export const AgingSection = ({ data }: { data: ReportData }) => (
  <Section
    title="Receivables by age"
    note={`Open ${money(data.receivables.open, data.company.currency)}, of which ${money(data.receivables.overdue, data.company.currency)} overdue, at the end of ${longDate(data.period.end)}.`}
  >
    <AgingBar aging={data.receivables.aging} currency={data.company.currency} />
  </Section>
);

const signedDays = (change: number) => `${change > 0 ? '+' : ''}${days(change)}`;

export const HabitsSection = ({ data }: { data: ReportData }) => (
  <Section
    title="Customers whose payment habits changed"
    note={
      `Average days late of payments ${periodLabel(data.habits.windows.before, 'weekly')} against ` +
      `${periodLabel(data.habits.windows.after, 'weekly')}, moved by 10 days or more` +
      (data.habits.total > data.habits.changes.length
        ? ` (${data.habits.changes.length} largest of ${data.habits.total}).`
        : '.')
    }
  >
    <DataTable
      columns={[
        { title: 'Customer', width: 46 },
        { title: 'Days late before', width: 18, align: 'right' },
        { title: 'Days late now', width: 18, align: 'right' },
        { title: 'Change', width: 18, align: 'right' },
      ]}
      rows={data.habits.changes.map((c) => [
        c.name,
        days(c.daysLateBefore),
        days(c.daysLateAfter),
        signedDays(c.change),
      ])}
      empty="No customer changed its payment habits."
    />
  </Section>
);

export const ChaseSection = ({ data }: { data: ReportData }) => (
  <Section
    title="Invoices to chase first"
    note={`Overdue at ${longDate(data.period.end)} and still open, ranked by balance x days overdue (${data.chase.invoices.length} of ${data.chase.overdueInvoices}).`}
  >
    <DataTable
      columns={[
        { title: 'Customer', width: 34 },
        { title: 'Invoice', width: 16 },
        { title: 'Due', width: 16 },
        { title: 'Days overdue', width: 14, align: 'right' },
        { title: 'Balance', width: 20, align: 'right' },
      ]}
      rows={data.chase.invoices.map((i) => [
        i.customerName,
        i.docNumber,
        longDate(i.dueDate),
        count(i.daysOverdue),
        money(i.balance, data.company.currency),
      ])}
      empty="No overdue invoices."
    />
  </Section>
);

export const ForecastSection = ({ data }: { data: ReportData }) => {
  const { forecast } = data;
  const { currency } = data.company;
  if (!forecast || forecast.weeks.length === 0)
    return (
      <Section title="Collections forecast">
        <pdf.Text style={text.muted}>No collections forecast has been made for this company yet.</pdf.Text>
      </Section>
    );
  const total = forecast.weeks.reduce((sum, w) => sum + w.mean, 0);
  return (
    <Section
      title="Collections forecast"
      note={`Expected cash-in from the ${money(forecast.openBalance, currency)} open, ${money(total, currency)} over the next ${forecast.weeks.length} weeks (forecast of ${longDate(forecast.asOf)}).`}
    >
      <ForecastChart weeks={forecast.weeks} currency={currency} />
      <pdf.View style={tableGapStyle}>
        <DataTable
          columns={[
            { title: 'Week of', width: 25 },
            { title: 'Expected', width: 25, align: 'right' },
            { title: 'Low (80%)', width: 25, align: 'right' },
            { title: 'High (80%)', width: 25, align: 'right' },
          ]}
          rows={forecast.weeks.map((w) => [
            shortDate(w.start),
            money(w.mean, currency),
            money(w.lower80, currency),
            money(w.upper80, currency),
          ])}
          empty=""
        />
      </pdf.View>
    </Section>
  );
};
