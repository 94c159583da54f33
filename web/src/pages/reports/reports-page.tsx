import { Button, Card } from '@tremor/react';
import { useCallback, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { useConnectedSellers } from '../../api/queries/platforms';
import { useRecipients } from '../../api/queries/recipients';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { useTimedMessage } from '../../components/use-timed-message';
import { isDevelopmentBuild } from '../../routing/build-mode';
import { AddRecipientModal } from './add-recipient-modal';
import { ReportTemplatesCard } from './report-templates-card';
import { factsOf } from '../../session/session-facts';
import { useSession } from '../../session/session-query';
import { ArchivedReportsTable } from './archived-reports-table';
import { ManagedReportsTable } from './managed-reports-table';
import { RecipientsTable } from './recipients-table';
import { RequestReportCard } from './request-report-card';

/**
 * /reports (portal.md section 2.3): Request Report, Live Reports, the Report Archive and the Report
 * Recipients. It needs a connected seller; without one the user goes to / (section 2.1).
 */
export const ReportsPage = () => {
  const session = useSession();
  const facts = factsOf(session);
  const sellers = useConnectedSellers();
  const recipients = useRecipients();
  const [failure, setFailure] = useState<string | null>(null);
  const onError = useCallback((message: string) => setFailure(message), []);
  const [notice, setNotice] = useTimedMessage();
  // The platforms page's Add recipient link opens the form for its company (/reports?sellerId=).
  const [search, setSearch] = useSearchParams();
  const linkedSeller = Number(search.get('sellerId')) || null;
  const [adding, setAdding] = useState<{ sellerId: number | null } | null>(
    linkedSeller === null ? null : { sellerId: linkedSeller },
  );
  const closeAdding = () => {
    setAdding(null);
    if (search.has('sellerId')) setSearch({}, { replace: true });
  };

  if (sellers.isPending) return <p className="p-4 text-sm text-gray-600">Loading...</p>;
  const rows = sellers.data?.rows ?? [];
  if (rows.length === 0) return <Navigate to="/" replace />;
  // A load failure is logged by the API client and shows as an empty table (portal.md section 8).
  const recipientRows = recipients.isError ? [] : recipients.data?.rows;

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <h1 className="text-xl font-semibold text-gray-900">Reports</h1>
      <SuccessCallout message={notice} />
      <ErrorCallout message={failure} />
      <RequestReportCard
        sellers={rows}
        recipients={recipientRows ?? []}
        requester={{ userId: session.user.Id, email: session.user.Email }}
      />
      <Card>
        <h2 className="mb-3 text-lg font-medium text-gray-900">Live Reports</h2>
        <ManagedReportsTable />
      </Card>
      <Card>
        <h2 className="mb-3 text-lg font-medium text-gray-900">Report Archive</h2>
        <ArchivedReportsTable showSeller={rows.length > 1} onError={onError} />
      </Card>
      <Card>
        <div className="mb-3 flex items-center justify-between gap-2">
          <h2 className="text-lg font-medium text-gray-900">Report Recipients</h2>
          <Button variant="secondary" onClick={() => setAdding({ sellerId: null })}>
            Add recipient
          </Button>
        </div>
        <RecipientsTable
          recipients={recipientRows}
          viewer={{
            userId: session.user.Id,
            isTenantAdmin: facts.isTenantAdmin,
            isPlatformAdmin: facts.isPlatformAdmin,
          }}
          onError={onError}
        />
      </Card>
      {isDevelopmentBuild && (
        <ReportTemplatesCard
          sellers={rows}
          canSend={facts.isPlatformAdmin}
          onDone={setNotice}
          onError={onError}
        />
      )}
      {adding && (
        <AddRecipientModal
          sellers={rows}
          sellerId={adding.sellerId}
          onClose={closeAdding}
          onAdded={setNotice}
        />
      )}
    </div>
  );
};
