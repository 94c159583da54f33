import { Button } from '@tremor/react';
import { useState } from 'react';
import { ReportFrequency, type ReportsRequest } from '../../../../contracts/api/jobs';
import { useRequestAdminReports } from '../../api/queries/reports';
import { CheckboxField } from '../../forms/checkbox-field';
import { SelectField } from '../../forms/select-field';
import { TextField } from '../../forms/text-field';

/** admin.md section 8: the send-report texts. */
export const jobsCreatedText = (count: number) =>
  `Jobs created for ${count} selected seller${count === 1 ? '' : 's'}`;
export const clientPerformanceCreatedText = (count: number) =>
  `Job created for ${count} Client Performance report${count === 1 ? '' : 's'}`;
export const sendFailureText = (error: unknown) =>
  `There was an error: ${error instanceof Error ? error.message : String(error)}`;

const frequencyLabels: Record<ReportFrequency, string> = {
  welcome: 'Welcome',
  weekly: 'Weekly',
  monthly: 'Monthly',
  scorecard: 'Scorecard',
  ondemand: 'On demand',
};

type ReportOptions = Omit<
  Extract<ReportsRequest, { type: 'REPORTS' }>,
  'type' | 'sellerIds' | 'subscriberIds' | 'sections'
>;
type WorkflowOptions = Omit<Extract<ReportsRequest, { type: 'WORKFLOW' }>, 'type' | 'sellerIds'>;

const initialReportOptions: ReportOptions = {
  frequency: 'weekly',
  admin: false,
  archive: false,
  includeCustomerSheet: false,
  includeCustomerReviewSheet: false,
  includePrioritizedInvoices: false,
  includeForecast: false,
};

/** admin.md section 9: the workflow defaults noOverride and noRecent true. */
const initialWorkflowOptions: WorkflowOptions = {
  frequency: 'weekly',
  noOverride: true,
  noRecent: true,
  onlyArchive: false,
  skipRecentDataChecks: false,
};

const reportFlags: readonly { key: keyof Omit<ReportOptions, 'frequency'>; label: string }[] = [
  { key: 'admin', label: 'Send to platform admins only' },
  { key: 'archive', label: 'Archive' },
  { key: 'includeCustomerSheet', label: 'Include customer sheet' },
  { key: 'includeCustomerReviewSheet', label: 'Include customer review sheet' },
  { key: 'includePrioritizedInvoices', label: 'Include prioritized invoices' },
  { key: 'includeForecast', label: 'Include AR forecast' },
];

const workflowFlags: readonly { key: keyof Omit<WorkflowOptions, 'frequency'>; label: string }[] = [
  { key: 'noOverride', label: 'Do not resend a report already sent this period' },
  { key: 'noRecent', label: 'Skip sellers without data in the past 24 hours' },
  { key: 'onlyArchive', label: 'Only archive (send no email)' },
  { key: 'skipRecentDataChecks', label: 'Skip the recent-data checks' },
];

type ClientPerformanceOptions = Pick<
  Extract<ReportsRequest, { type: 'CLIENT_PERFORMANCE' }>,
  'excludeAdmins' | 'hasSellers' | 'dryRun' | 'admin'
>;

const initialClientPerformanceOptions: ClientPerformanceOptions = {
  excludeAdmins: false,
  hasSellers: false,
  dryRun: false,
  admin: false,
};

/** admin.md sections 3 and 7: the Client Performance options of the send-report call. */
const clientPerformanceFlags: readonly { key: keyof ClientPerformanceOptions; label: string }[] = [
  { key: 'excludeAdmins', label: 'Exclude platform admins' },
  { key: 'hasSellers', label: 'Only advisors with a client that has a connected platform' },
  { key: 'dryRun', label: 'Dry run (plan and record who would get what, send nothing)' },
  { key: 'admin', label: "Send every advisor's report to me instead" },
];

/** A user id typed in the form: a positive whole number, or nothing for every advisor. */
const advisorIdOf = (text: string): number | null | 'invalid' => {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^\d+$/.test(trimmed) && Number(trimmed) > 0 ? Number(trimmed) : 'invalid';
};

/**
 * Send Report to Advisors (admin.md section 2, admin users table): the advisors' Client Performance
 * Summary emailed, to every advisor of a firm or to one user; one job whose result lists each advisor.
 */
const ClientPerformanceForm = ({ onDone, onError }: Omit<SendReportsPanelProps, 'sellerIds'>) => {
  const send = useRequestAdminReports();
  const [options, setOptions] = useState(initialClientPerformanceOptions);
  const [advisorId, setAdvisorId] = useState('');
  const userId = advisorIdOf(advisorId);
  const submit = async () => {
    if (userId === 'invalid') return;
    try {
      const { jobs } = await send.mutateAsync({
        type: 'CLIENT_PERFORMANCE',
        ...options,
        ...(userId === null ? {} : { userId }),
      });
      onDone(clientPerformanceCreatedText(jobs.length));
    } catch (error) {
      onError(sendFailureText(error));
    }
  };
  return (
    <section aria-label="Send Report to Advisors" className="space-y-3 lg:col-span-2">
      <h3 className="font-medium text-gray-900">Send Report to Advisors</h3>
      <p className="text-sm text-gray-600">
        Emails each advisor the Client Performance Summary of their clients (a PDF for 1 to 29 clients, the
        sheet from 30).
      </p>
      <TextField
        name="clientPerformanceUserId"
        label="Advisor user id (empty: every advisor)"
        value={advisorId}
        onValueChange={setAdvisorId}
        error={userId === 'invalid' ? 'Enter a user id, or leave it empty.' : undefined}
      />
      {clientPerformanceFlags.map((flag) => (
        <CheckboxField
          key={flag.key}
          name={`client-${flag.key}`}
          label={flag.label}
          checked={options[flag.key]}
          onCheckedChange={(checked) => setOptions((current) => ({ ...current, [flag.key]: checked }))}
        />
      ))}
      <Button
        variant="secondary"
        loading={send.isPending}
        disabled={userId === 'invalid'}
        onClick={() => void submit()}
      >
        Send Client Performance
      </Button>
    </section>
  );
};

type SendReportsPanelProps = {
  sellerIds: readonly number[];
  onDone: (message: string) => void;
  onError: (message: string) => void;
};

/**
 * The admin send-reports panel: report options and workflow options for the selected sellers (the
 * send buttons show only when a seller is selected, admin.md section 5), and the advisors' Client
 * Performance report, which needs no seller.
 */
export const SendReportsPanel = ({ sellerIds, onDone, onError }: SendReportsPanelProps) => {
  const send = useRequestAdminReports();
  const [report, setReport] = useState(initialReportOptions);
  const [workflow, setWorkflow] = useState(initialWorkflowOptions);

  const submit = async (body: ReportsRequest) => {
    try {
      const { jobs } = await send.mutateAsync(body);
      onDone(jobsCreatedText(jobs.length));
    } catch (error) {
      onError(sendFailureText(error));
    }
  };

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <section aria-label="Report options" className="space-y-3">
        <h3 className="font-medium text-gray-900">Send reports</h3>
        <SelectField
          name="reportFrequency"
          label="Report"
          value={report.frequency}
          onValueChange={(value) =>
            setReport((current) => ({ ...current, frequency: ReportFrequency.parse(value) }))
          }
          options={ReportFrequency.options.map((value) => ({ value, label: frequencyLabels[value] }))}
        />
        {reportFlags.map((flag) => (
          <CheckboxField
            key={flag.key}
            name={`report-${flag.key}`}
            label={flag.label}
            checked={report[flag.key]}
            onCheckedChange={(checked) => setReport((current) => ({ ...current, [flag.key]: checked }))}
          />
        ))}
        {sellerIds.length > 0 && (
          <Button
            loading={send.isPending}
            onClick={() => void submit({ type: 'REPORTS', sellerIds: [...sellerIds], ...report })}
          >
            Send reports
          </Button>
        )}
      </section>
      <section aria-label="Workflow options" className="space-y-3">
        <h3 className="font-medium text-gray-900">Start the report workflow</h3>
        <SelectField
          name="workflowFrequency"
          label="Frequency"
          value={workflow.frequency}
          onValueChange={(value) =>
            setWorkflow((current) => ({
              ...current,
              frequency: value === 'monthly' ? 'monthly' : value === 'none' ? 'none' : 'weekly',
            }))
          }
          options={[
            { value: 'weekly', label: 'Weekly' },
            { value: 'monthly', label: 'Monthly' },
            { value: 'none', label: 'None' },
          ]}
        />
        {workflowFlags.map((flag) => (
          <CheckboxField
            key={flag.key}
            name={`workflow-${flag.key}`}
            label={flag.label}
            checked={workflow[flag.key]}
            onCheckedChange={(checked) => setWorkflow((current) => ({ ...current, [flag.key]: checked }))}
          />
        ))}
        {sellerIds.length > 0 && (
          <Button
            variant="secondary"
            loading={send.isPending}
            onClick={() => void submit({ type: 'WORKFLOW', sellerIds: [...sellerIds], ...workflow })}
          >
            Start workflow
          </Button>
        )}
      </section>
      <ClientPerformanceForm onDone={onDone} onError={onError} />
    </div>
  );
};
