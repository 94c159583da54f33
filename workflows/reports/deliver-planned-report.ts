import type { ReportActivities, ReportSummary } from './activities';
import type { ArchivedFile, ReportJobResult, ReportJobStep, ReportPlan } from './report-job-input';

/** The two steps a delivery takes: activities in the report workflow, direct calls in a batch. */
export type DeliverySteps = Pick<ReportActivities, 'renderAndArchive' | 'sendReportEmail'>;

/**
 * Delivers a planned job that has something to send: each file rendered and archived once, then one
 * email per recipient, in order, so the progress reads n of m. Shared by the report workflow and the
 * scheduled send's batches (docs/adr/0038); it imports nothing at run time, so workflow code may call
 * it.
 */
export const deliverPlannedReport = async (
  steps: DeliverySteps,
  job: ReportJobStep,
  plan: ReportPlan,
): Promise<ReportJobResult> => {
  const skippedRecipients = [...plan.skippedRecipients];
  const archived: ArchivedFile[] = [];
  let summary: ReportSummary | null = null;
  for (const [index, file] of plan.files.entries()) {
    const rendered = await steps.renderAndArchive({
      ...job,
      file,
      index,
      total: plan.files.length,
      recipientCount: plan.recipientIds.length,
    });
    if (rendered.archived) archived.push(rendered.archived);
    summary ??= rendered.summary;
  }
  const sent: number[] = [];
  for (const [index, recipientId] of plan.recipientIds.entries()) {
    const outcome = await steps.sendReportEmail({
      ...job,
      recipientId,
      archived,
      summary,
      index,
      total: plan.recipientIds.length,
      fileCount: plan.files.length,
    });
    if (outcome.status === 'skipped') skippedRecipients.push({ recipientId, reason: outcome.reason });
    else sent.push(recipientId);
  }
  return { skipped: null, archived, sent, skippedRecipients };
};
