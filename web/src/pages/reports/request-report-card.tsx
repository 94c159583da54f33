import { Button, Card } from '@tremor/react';
import { useMemo, useState } from 'react';
import type { SellerReportType } from '../../../../contracts/api/jobs';
import { isDemoRecipientEmail, type RecipientResponse } from '../../../../contracts/api/recipients';
import type { SellerResponse } from '../../../../contracts/api/sellers';
import { ApiError } from '../../api/api-error';
import { errorCatalogue } from '../../api/error-catalogue';
import { useRequestSellerReport } from '../../api/queries/reports';
import { ModalDialog } from '../../components/modal-dialog';
import { SelectField } from '../../forms/select-field';
import { JobProgressList } from '../../live/job-progress-bar';
import { useRunningJobs } from '../../live/running-jobs';
import { recipientName } from './recipients-table';
import { reportTexts, sellerReportLabels } from './report-texts';

const typeOptions = (Object.keys(sellerReportLabels) as SellerReportType[]).map((type) => ({
  value: type,
  label: sellerReportLabels[type],
}));

const isActive = (recipient: RecipientResponse) =>
  recipient.STATE === 'ACTIVE' || recipient.STATE === 'ADMIN';

export type ReportRequester = { userId: number; email: string };

const isRequester = (recipient: RecipientResponse, requester: ReportRequester) =>
  recipient.SubscriberId === requester.userId ||
  recipient.Subscriber.Email?.trim().toLowerCase() === requester.email.trim().toLowerCase();

/** portal.md section 5 (Request report): at least one recipient, and the current user among them. */
export const requestProblem = (
  selected: readonly RecipientResponse[],
  requester: ReportRequester,
): string | null => {
  if (selected.length === 0) return reportTexts.needRecipient;
  if (!selected.some((recipient) => isRequester(recipient, requester))) return reportTexts.needSelf;
  return null;
};

type ModalProps = {
  sellerId: number;
  type: SellerReportType;
  recipients: readonly RecipientResponse[];
  requester: ReportRequester;
  onClose: () => void;
  onSent: () => void;
  onFailed: (message: string) => void;
};

/** The Request Report modal: active recipients to tick, demo addresses disabled. */
const RequestReportModal = ({
  sellerId,
  type,
  recipients,
  requester,
  onClose,
  onSent,
  onFailed,
}: ModalProps) => {
  const request = useRequestSellerReport();
  const choices = useMemo(() => recipients.filter(isActive), [recipients]);
  const [selected, setSelected] = useState<number[]>(() =>
    choices.filter((recipient) => isRequester(recipient, requester)).map((recipient) => recipient.Id),
  );
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async () => {
    const chosen = choices.filter((recipient) => selected.includes(recipient.Id));
    const refusal = requestProblem(chosen, requester);
    setProblem(refusal);
    if (refusal) return;
    try {
      await request.mutateAsync({ sellerId, type, recipientIds: selected });
      onSent();
    } catch (error) {
      onFailed(error instanceof ApiError ? error.message : errorCatalogue.default);
    }
  };

  return (
    <ModalDialog open title={`Request ${sellerReportLabels[type].toLowerCase()}`} onClose={onClose}>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-gray-700">Send it to</legend>
        {choices.length === 0 && <p className="text-sm text-gray-600">No Report Recipients</p>}
        {choices.map((recipient) => {
          const demo = isDemoRecipientEmail(recipient.Subscriber.Email ?? '');
          return (
            <label key={recipient.Id} className="flex items-start gap-2 text-sm text-gray-800">
              <input
                type="checkbox"
                className="mt-0.5 h-4 w-4"
                checked={selected.includes(recipient.Id)}
                disabled={demo}
                onChange={(event) =>
                  setSelected((ids) =>
                    event.target.checked ? [...ids, recipient.Id] : ids.filter((id) => id !== recipient.Id),
                  )
                }
              />
              <span>
                {recipientName(recipient)}{' '}
                <span className="text-xs text-gray-500">{recipient.Subscriber.Email}</span>
                {demo && <span className="block text-xs text-gray-500">{reportTexts.demoRecipient}</span>}
              </span>
            </label>
          );
        })}
      </fieldset>
      {problem && (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button loading={request.isPending} onClick={() => void submit()}>
          Send report
        </Button>
      </div>
    </ModalDialog>
  );
};

type RequestReportCardProps = {
  sellers: readonly SellerResponse[];
  recipients: readonly RecipientResponse[];
  requester: ReportRequester;
};

/** Request Report: pick a company and a report, choose recipients, and watch it being prepared. */
export const RequestReportCard = ({ sellers, recipients, requester }: RequestReportCardProps) => {
  const [sellerId, setSellerId] = useState(String(sellers[0]?.Id ?? ''));
  const [type, setType] = useState<SellerReportType>('weekly');
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<{ title: string; message: string } | null>(null);
  const running = useRunningJobs().filter((job) => job.kind === 'report');
  const chosenSeller = Number(sellerId);

  return (
    <Card>
      <h2 className="mb-1 text-lg font-medium text-gray-900">Request Report</h2>
      <p className="mb-4 text-sm text-gray-600">
        Send a report now, as a PDF by email, to recipients of your choice. It is archived below.
      </p>
      <div className="grid gap-4 sm:grid-cols-3 sm:items-end">
        {sellers.length > 1 && (
          <SelectField
            name="reportSeller"
            label="Company"
            value={sellerId}
            onValueChange={setSellerId}
            options={sellers.map((seller) => ({
              value: String(seller.Id),
              label: seller.CompanyName ?? `Company ${seller.Id}`,
            }))}
          />
        )}
        <SelectField
          name="reportType"
          label="Report"
          value={type}
          onValueChange={(value) => setType(value as SellerReportType)}
          options={typeOptions}
        />
        <div>
          <Button disabled={!chosenSeller} onClick={() => setOpen(true)}>
            Request Report
          </Button>
        </div>
      </div>
      {running.length > 0 && (
        <div className="mt-4">
          <JobProgressList jobs={running} />
        </div>
      )}
      {open && (
        <RequestReportModal
          sellerId={chosenSeller}
          type={type}
          recipients={recipients.filter((recipient) => recipient.SellerId === chosenSeller)}
          requester={requester}
          onClose={() => setOpen(false)}
          onSent={() => {
            setOpen(false);
            setOutcome({ title: reportTexts.requestReceivedTitle, message: reportTexts.requestReceivedNote });
          }}
          onFailed={(message) => {
            setOpen(false);
            setOutcome({ title: reportTexts.sendErrorTitle, message });
          }}
        />
      )}
      {/* Mounted fresh when the request modal closes: a second dialog opening while the first leaves
          stayed hidden in Chromium. */}
      {outcome && (
        <ModalDialog
          open
          title={outcome.title}
          role={outcome.title === reportTexts.sendErrorTitle ? 'alertdialog' : 'dialog'}
          onClose={() => setOutcome(null)}
        >
          <p className="text-sm text-gray-700">{outcome.message}</p>
          <div className="flex justify-end">
            <Button onClick={() => setOutcome(null)}>OK</Button>
          </div>
        </ModalDialog>
      )}
    </Card>
  );
};
