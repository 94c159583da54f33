import {
  Button,
  Card,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeaderCell,
  TableRow,
} from '@tremor/react';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import type { QbdLog, QbdLogsResponse } from '../../../../../contracts/api/qbd';
import {
  qbdLogLimit,
  useQbdLogs,
  useReplayQbdCapture,
  useStartQbdSession,
} from '../../../api/queries/admin-collection';
import { ErrorCallout } from '../../../components/error-callout';
import { TextLink } from '../../../components/text-link';
import { tableTexts } from '../../../table/empty-texts';
import { PageFrame } from '../../dashboard/stat-card';
import { isFailedLog, lastSyncNames, logTimeText, noLogsText } from './qbd-logs-rules';

const inputClass =
  'w-full rounded border border-gray-300 px-2 py-1 text-sm text-gray-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600';

const ConfigCard = ({ config }: { config: QbdLogsResponse['config'] }) => (
  <Card>
    <h2 className="text-base font-semibold text-gray-900">Web Connector</h2>
    <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
      {[
        ['Web Connector version', config.webConnectorVersion ?? 'Unknown'],
        ['Company file', config.companyFile || 'The file open in QuickBooks'],
        ...Object.entries(lastSyncNames).map(([key, name]) => {
          const at = config.lastSyncs[key];
          return [`Last sync of ${name.toLowerCase()}`, at ? logTimeText(at) : 'Never'];
        }),
      ].map(([term, value]) => (
        <div key={term} className="flex gap-2">
          <dt className="font-medium text-gray-700">{term}:</dt>
          <dd className="break-all text-gray-900">{value}</dd>
        </div>
      ))}
    </dl>
  </Card>
);

const SummaryCard = ({ summary }: { summary: QbdLogsResponse['summary'] }) => (
  <Card>
    <h2 className="text-base font-semibold text-gray-900">Requests, last 90 days</h2>
    <Table aria-label="Requests per day">
      <TableHead>
        <TableRow>
          <TableHeaderCell>Date</TableHeaderCell>
          <TableHeaderCell>Requests</TableHeaderCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {summary.length === 0 ? (
          <TableRow>
            <TableCell colSpan={2} className="text-center">
              {noLogsText}
            </TableCell>
          </TableRow>
        ) : (
          summary.map((day) => (
            <TableRow key={day.date}>
              <TableCell>{day.date}</TableCell>
              <TableCell>{day.count}</TableCell>
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  </Card>
);

/** The log entries, newest first; a failure (status FAIL:) in red. */
export const QbdLogTable = ({ logs }: { logs: readonly QbdLog[] | undefined }) => (
  <div className="max-h-[1000px] overflow-auto rounded-tremor-default border border-gray-200 bg-white">
    <Table aria-label="QuickBooks Desktop logs">
      <TableHead>
        <TableRow>
          {['Session', 'Endpoint', 'Status', 'Time'].map((header) => (
            <TableHeaderCell key={header} className="px-2 sm:px-4">
              {header}
            </TableHeaderCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {!logs || logs.length === 0 ? (
          <TableRow>
            <TableCell colSpan={4} className="text-center">
              <span role="status">{logs ? noLogsText : tableTexts.loading}</span>
            </TableCell>
          </TableRow>
        ) : (
          logs.map((log, index) => {
            const failed = isFailedLog(log);
            return (
              <TableRow
                key={`${log.Time}-${index}`}
                className={failed ? 'bg-red-50' : undefined}
                data-failure={failed || undefined}
              >
                <TableCell className="break-all px-2 sm:px-4">{log.Session || '-'}</TableCell>
                <TableCell className="px-2 sm:px-4">
                  {log.Endpoint}
                  {log.Request ? ` (${log.Request})` : ''}
                </TableCell>
                <TableCell
                  className={`whitespace-normal px-2 sm:px-4 ${failed ? 'font-semibold text-red-800' : ''}`}
                >
                  {log.Status}
                </TableCell>
                <TableCell className="px-2 sm:px-4">{logTimeText(log.Time)}</TableCell>
              </TableRow>
            );
          })
        )}
      </TableBody>
    </Table>
  </div>
);

const SessionForm = ({ sellerId }: { sellerId: number }) => {
  const start = useStartQbdSession();
  const [collectionDate, setCollectionDate] = useState('');
  const [reset, setReset] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    start.mutate({
      sellerId,
      configId: sellerId,
      reset,
      ...(collectionDate ? { collectionDate: new Date(`${collectionDate}T00:00:00Z`).toISOString() } : {}),
    });
  };
  return (
    <Card>
      <form onSubmit={submit} aria-label="Start a session" className="space-y-2">
        <h2 className="text-base font-semibold text-gray-900">Session</h2>
        <label className="block text-sm text-gray-700">
          Collection date (optional)
          <input
            type="date"
            className={inputClass}
            value={collectionDate}
            onChange={(event) => setCollectionDate(event.target.value)}
          />
        </label>
        <label className="flex items-center gap-2 text-sm text-gray-700">
          <input type="checkbox" checked={reset} onChange={(event) => setReset(event.target.checked)} />
          Reset (fetch everything again)
        </label>
        <Button type="submit" loading={start.isPending}>
          Start session
        </Button>
        {start.isError && <ErrorCallout message={start.error.message} />}
        {start.data && (
          <p role="status" className="text-sm text-gray-900">
            Session {start.data.session} started ({start.data.mode}); the next Web Connector run continues it.
          </p>
        )}
      </form>
    </Card>
  );
};

const CaptureForm = ({ sellerId }: { sellerId: number }) => {
  const replay = useReplayQbdCapture();
  const [xml, setXml] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    replay.mutate({ sellerId, configId: sellerId, xml });
  };
  return (
    <Card>
      <form onSubmit={submit} aria-label="Replay a capture" className="space-y-2">
        <h2 className="text-base font-semibold text-gray-900">Capture</h2>
        <label className="block text-sm text-gray-700">
          Captured qbXML response
          <textarea
            className={`${inputClass} h-32 font-mono`}
            value={xml}
            onChange={(event) => setXml(event.target.value)}
          />
        </label>
        <Button type="submit" loading={replay.isPending} disabled={xml.trim() === ''}>
          Replay capture
        </Button>
        {replay.isError && <ErrorCallout message={replay.error.message} />}
        {replay.data && (
          <p role="status" className="text-sm text-gray-900">
            {replay.data.query}: {replay.data.records} records read, {replay.data.written} written,{' '}
            {replay.data.skipped} skipped.
          </p>
        )}
      </form>
    </Card>
  );
};

const sellerIdOfParam = (param: string | undefined): number | null =>
  param && /^[1-9]\d{0,14}$/.test(param) ? Number(param) : null;

const Logs = ({ sellerId }: { sellerId: number }) => {
  const logs = useQbdLogs(sellerId);
  if (logs.isError) return <ErrorCallout message={logs.error.message} />;
  return (
    <>
      {logs.data && <ConfigCard config={logs.data.config} />}
      <Card>
        <h2 className="text-base font-semibold text-gray-900">Logs</h2>
        {logs.data && logs.data.logs.length >= qbdLogLimit && (
          <p className="text-sm text-gray-700">The newest {qbdLogLimit} entries are shown.</p>
        )}
        <QbdLogTable logs={logs.data?.logs} />
      </Card>
      {logs.data && <SummaryCard summary={logs.data.summary} />}
    </>
  );
};

/**
 * /admin/collection/qbd-logs/{sellerId} (route "QuickBooks Desktop Logs", admin.md section 2): the
 * Web Connector's configuration, its requests per day over 90 days and the newest 1000 log entries,
 * with the session and capture forms.
 */
export const QbdLogsPage = () => {
  const sellerId = sellerIdOfParam(useParams().sellerId);
  return (
    <PageFrame title={`QuickBooks Desktop Logs${sellerId === null ? '' : ` of seller ${sellerId}`}`}>
      <p className="text-sm">
        <TextLink to="/admin/sellers">Back to sellers</TextLink>
      </p>
      {sellerId === null ? (
        <ErrorCallout message="Seller not found." />
      ) : (
        <>
          <Logs sellerId={sellerId} />
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
            <SessionForm sellerId={sellerId} />
            <CaptureForm sellerId={sellerId} />
          </div>
        </>
      )}
    </PageFrame>
  );
};
