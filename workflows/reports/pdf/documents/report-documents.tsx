import type { DocumentProps } from '@react-pdf/renderer';
import type { ReactElement } from 'react';
import type { ReportSection } from '../../../../contracts/api/reports';
import type { ClientPerformanceData } from '../../report-data/client-performance-data';
import type { ReportData } from '../../report-data/report-data';
import type { WelcomeData } from '../../report-data/welcome-data';
import { AgingBar } from '../components/charts';
import { DataTable } from '../components/data-table';
import { KpiCard, KpiRow } from '../components/kpi-card';
import { ReportPage, Section } from '../components/report-page';
import { text } from '../components/theme';
import { count, days, longDate, longMonth, money, periodLabel } from '../pdf-format';
import type { PdfJob } from '../pdf-job';
import { pdf } from '../react-pdf';
import { BenchmarksBody } from './benchmarks-body';
import {
  AgingSection,
  ChaseSection,
  ForecastSection,
  HabitsSection,
  PeriodIntro,
  RevenueCollectionsSection,
  SummarySection,
} from './periodic-sections';
import { ScorecardBody } from './scorecard-body';

const Doc = ({ title, children }: { title: string; children: ReactElement | ReactElement[] }) => (
  <pdf.Document title={title} author="Ledgerwise" creator="Ledgerwise" producer="Ledgerwise">
    {children}
  </pdf.Document>
);

const periodicSections: Record<
  Exclude<ReportSection, 'health-score' | 'benchmarks'>,
  (props: { data: ReportData }) => ReactElement
> = {
  summary: SummarySection,
  'revenue-collections': RevenueCollectionsSection,
  'receivables-aging': AgingSection,
  'payment-habits': HabitsSection,
  'invoices-to-chase': ChaseSection,
  'collections-forecast': ForecastSection,
};

const WEEKLY_MONTHLY: ReportSection[] = [
  'summary',
  'revenue-collections',
  'receivables-aging',
  'payment-habits',
  'invoices-to-chase',
  'collections-forecast',
];

/**
 * A weekly or monthly report on pages laid out by hand, each section's content bounded (10 rows a
 * table) so that it fits: the figures, charts and aging on the first page, the two lists on the
 * second, the forecast (once there is one, issue 14) on the third.
 */
const periodicDocument = (data: ReportData) => {
  const title = data.frequency === 'weekly' ? 'Weekly Report' : 'Monthly Report';
  const pages: ReactElement[][] = [
    [
      <PeriodIntro key="intro" data={data} />,
      <SummarySection key="summary" data={data} />,
      <RevenueCollectionsSection key="revenue" data={data} />,
      <AgingSection key="aging" data={data} />,
    ],
    [<HabitsSection key="habits" data={data} />, <ChaseSection key="chase" data={data} />],
    ...(data.forecast === null ? [] : [[<ForecastSection key="forecast" data={data} />]]),
  ];
  return (
    <Doc title={`${data.company.name} - ${title}`}>
      {pages.map((content, i) => (
        <ReportPage
          key={i}
          company={data.company}
          title={title}
          subtitle={periodLabel(data.period, data.frequency)}
          dataAsOf={data.dataAsOf}
          page={{ number: i + 1, of: pages.length }}
        >
          {content}
        </ReportPage>
      ))}
    </Doc>
  );
};

const ordinal = (n: number) => {
  const suffix =
    n % 10 === 1 && n !== 11
      ? 'st'
      : n % 10 === 2 && n !== 12
        ? 'nd'
        : n % 10 === 3 && n !== 13
          ? 'rd'
          : 'th';
  return `${n}${suffix}`;
};
const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const welcomeDocument = ({ found, standing }: WelcomeData) => {
  const { company } = standing;
  const { currency } = company;
  return (
    <Doc title={`${company.name} - Welcome Report`}>
      <ReportPage
        company={company}
        title="Welcome Report"
        subtitle={longDate(standing.asOf)}
        dataAsOf={standing.dataAsOf}
      >
        <pdf.Text style={{ marginBottom: 12 }}>
          {`Your first sync is complete. Here is what we found in the books of ${company.name}, and how your reports will work from now on.`}
        </pdf.Text>
        <Section title="What we found">
          {found ? (
            <pdf.View>
              <KpiRow>
                <KpiCard label="Customers (36 months)" value={count(found.customersT36M)} changes={[]} />
                <KpiCard label="Active customers" value={count(found.activeCustomers)} changes={[]} />
                <KpiCard label="Invoices (36 months)" value={count(found.invoicesT36M)} changes={[]} />
              </KpiRow>
              <KpiRow>
                <KpiCard
                  label="Sales (36 months)"
                  value={money(found.invoiceSalesT36M, currency)}
                  changes={[]}
                />
                <KpiCard
                  label="Open receivables"
                  value={money(standing.receivables.open, currency)}
                  changes={[]}
                />
                <KpiCard
                  label="Overdue receivables"
                  value={money(standing.receivables.overdue, currency)}
                  changes={[]}
                />
              </KpiRow>
            </pdf.View>
          ) : (
            <pdf.Text style={text.muted}>
              The figures are still being computed; they will be in your first weekly report.
            </pdf.Text>
          )}
        </Section>
        <Section title="Receivables by age">
          <AgingBar aging={standing.receivables.aging} currency={currency} />
        </Section>
        <Section title="Largest balances">
          <DataTable
            columns={[
              { title: 'Customer', width: 70 },
              { title: 'Open balance', width: 30, align: 'right' },
            ]}
            rows={standing.topCustomers.map((c) => [c.name, money(c.openBalance, currency)])}
            empty="No customer owes anything."
          />
        </Section>
        <Section title="How your reports work">
          {[
            `Every ${weekdays[company.weeklyDay] ?? 'week'}, a weekly report covers the previous Monday to Sunday: revenue and collections against the week before and the same week last year, receivables by age, DSO, customers whose payment habits changed and the invoices to chase first.`,
            `On the ${ordinal(company.monthlyDay)} of each month, a monthly report covers the previous calendar month in the same way.`,
            `Amounts are in ${currency}. Reports go to the recipients listed on the Reports page, where each can turn weekly or monthly sending off, and every report sent is kept in the Report Archive.`,
          ].map((line) => (
            <pdf.View key={line} style={{ flexDirection: 'row', marginBottom: 4 }}>
              <pdf.Text style={{ width: 10 }}>-</pdf.Text>
              <pdf.Text style={{ flex: 1 }}>{line}</pdf.Text>
            </pdf.View>
          ))}
        </Section>
      </ReportPage>
    </Doc>
  );
};

const clientPerformanceDocument = (data: ClientPerformanceData) => {
  const rows = data.clients.flatMap((client) =>
    client.sellers.map((s) => {
      const amount = (cents: number | null) => (cents === null ? 'n/a' : money(cents, client.currency));
      return [
        client.name,
        s.companyName,
        amount(s.revenue),
        amount(s.collections),
        amount(s.open),
        amount(s.overdue),
        days(s.dso),
      ];
    }),
  );
  return (
    <Doc title="Client Performance Summary">
      <ReportPage
        company={data.firm ?? { name: 'Client Performance Summary', logo: null }}
        title="Client Performance Summary"
        subtitle={longMonth(data.period.start)}
        dataAsOf={data.asOf}
      >
        <pdf.Text style={{ ...text.muted, marginBottom: 10 }}>
          {`Prepared for ${data.preparedFor}: ${data.clients.length} client${data.clients.length === 1 ? '' : 's'}, ` +
            `figures for ${longMonth(data.period.start)} in each client's currency; receivables at the month's end.`}
        </pdf.Text>
        <DataTable
          columns={[
            { title: 'Client', width: 18 },
            { title: 'Company', width: 18 },
            { title: 'Revenue', width: 13, align: 'right' },
            { title: 'Collections', width: 13, align: 'right' },
            { title: 'Open receivables', width: 13, align: 'right' },
            { title: 'Overdue', width: 13, align: 'right' },
            { title: 'DSO', width: 12, align: 'right' },
          ]}
          rows={rows}
          empty="No clients."
        />
      </ReportPage>
    </Doc>
  );
};

/** The document element of a job: what the PDF process renders. */
export const documentOf = (job: PdfJob): ReactElement<DocumentProps> => {
  switch (job.kind) {
    case 'periodic':
      return periodicDocument(job.data);
    case 'welcome':
      return welcomeDocument(job.data);
    case 'scorecard':
      return (
        <Doc title={`${job.data.company.name} - Scorecard`}>
          <ReportPage
            company={job.data.company}
            title="Scorecard"
            subtitle={longDate(job.data.asOf)}
            dataAsOf={job.data.dataAsOf}
          >
            <ScorecardBody data={job.data} />
          </ReportPage>
        </Doc>
      );
    case 'benchmarks':
      return (
        <Doc title={`${job.data.company.name} - Benchmarks`}>
          <ReportPage
            company={job.data.company}
            title="Benchmarks"
            subtitle={longMonth(job.data.period.start)}
            dataAsOf={job.data.asOf}
          >
            <BenchmarksBody data={job.data} />
          </ReportPage>
        </Doc>
      );
    case 'ondemand': {
      const { data } = job;
      const chosen = (section: ReportSection) => job.sections.includes(section);
      return (
        <Doc title={`${data.company.name} - Report`}>
          <ReportPage
            company={data.company}
            title="On-demand Report"
            subtitle={periodLabel(data.period, data.frequency)}
            dataAsOf={data.dataAsOf}
          >
            <PeriodIntro data={data} />
            {WEEKLY_MONTHLY.filter(chosen).map((id) => {
              const Body = periodicSections[id as keyof typeof periodicSections];
              return <Body key={id} data={data} />;
            })}
            {chosen('health-score') && job.scorecard ? (
              <Section title="Health score" breakable>
                <ScorecardBody data={job.scorecard} />
              </Section>
            ) : (
              <></>
            )}
            {chosen('benchmarks') && job.benchmarks ? (
              <Section title="Benchmarks" breakable>
                {'unavailable' in job.benchmarks ? (
                  <pdf.Text style={text.muted}>{job.benchmarks.unavailable}</pdf.Text>
                ) : (
                  <BenchmarksBody data={job.benchmarks} />
                )}
              </Section>
            ) : (
              <></>
            )}
          </ReportPage>
        </Doc>
      );
    }
    case 'clientPerformance':
      return clientPerformanceDocument(job.data);
  }
};
