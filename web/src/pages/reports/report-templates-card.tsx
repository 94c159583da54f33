import { Button, Card } from '@tremor/react';
import { useState } from 'react';
import type { ReportTemplate } from '../../../../contracts/api/reports';
import type { SellerResponse } from '../../../../contracts/api/sellers';
import { useRequestAdminReports } from '../../api/queries/reports';
import { TextLink } from '../../components/text-link';
import { sectionLabels, useReportTemplates } from './report-templates';
import { reportTexts } from './report-texts';

type ReportTemplatesCardProps = {
  sellers: readonly SellerResponse[];
  /** Sending a template's report is a platform admin's call (POST /api/reports). */
  canSend: boolean;
  onDone: (message: string) => void;
  onError: (message: string) => void;
};

/** Report Templates (development only): the on-demand reports this user has built. */
export const ReportTemplatesCard = ({ sellers, canSend, onDone, onError }: ReportTemplatesCardProps) => {
  const { templates, isPending } = useReportTemplates();
  const send = useRequestAdminReports();
  const [sending, setSending] = useState<string | null>(null);
  const seller = sellers[0];

  const sendNow = async (template: ReportTemplate) => {
    if (!seller) return;
    setSending(template.id);
    try {
      await send.mutateAsync({
        type: 'REPORTS',
        frequency: 'ondemand',
        sellerIds: [seller.Id],
        admin: true,
        archive: true,
        includeCustomerSheet: false,
        includeCustomerReviewSheet: false,
        includePrioritizedInvoices: false,
        includeForecast: false,
        sections: template.sections,
      });
      onDone(`${reportTexts.requestReceivedTitle}: ${template.name}`);
    } catch (error) {
      onError(reportTexts.errorPrefix + (error instanceof Error ? error.message : String(error)));
    } finally {
      setSending(null);
    }
  };

  return (
    <Card>
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 className="text-lg font-medium text-gray-900">Report Templates</h2>
        <TextLink to="/reports/new">New template</TextLink>
      </div>
      {isPending ? (
        <p className="text-sm text-gray-600">Loading...</p>
      ) : templates.length === 0 ? (
        <p className="text-sm text-gray-600">No report templates yet.</p>
      ) : (
        <ul className="divide-y divide-gray-200">
          {templates.map((template) => (
            <li key={template.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div>
                <p className="font-medium text-gray-900">{template.name}</p>
                <p className="text-xs text-gray-600">
                  {template.sections.map((section) => sectionLabels[section].split(':')[0]).join(', ')}
                </p>
              </div>
              <div className="flex gap-2">
                <TextLink to={`/reports/${template.id}/edit`}>Edit</TextLink>
                {canSend && seller && (
                  <Button
                    size="xs"
                    variant="secondary"
                    loading={sending === template.id}
                    onClick={() => void sendNow(template)}
                    aria-label={`Send ${template.name} now`}
                  >
                    Send now
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
};
