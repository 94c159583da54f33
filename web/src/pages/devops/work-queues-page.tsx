import { Button, Card } from '@tremor/react';
import { Fragment, useState, type ReactNode } from 'react';
import {
  devopsTexts,
  type JobQueue,
  type QueueClearStatus,
  type QueuesResponse,
} from '../../../../contracts/api/devops';
import { useClearQueue, useWorkQueues } from '../../api/queries/admin-devops';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { useTimedMessage } from '../../components/use-timed-message';
import { tableTexts } from '../../table/empty-texts';
import { PageFrame, StatCard } from '../dashboard/stat-card';
import { TypedConfirmDialog, cancellingText } from '../admin/sellers/typed-confirm-dialog';

const clearButtons: readonly { status: QueueClearStatus; label: string; what: string }[] = [
  { status: 'locks', label: 'Clear Locks', what: 'running jobs are cancelled with their runs' },
  { status: 'waiting', label: 'Clear Waiting', what: 'jobs not started yet are cancelled' },
  { status: 'failed', label: 'Clear Failed', what: 'failures so far are set aside from the count' },
];

const bytesText = (bytes: number | null) =>
  bytes === null
    ? 'Unknown'
    : `${(bytes / (1024 * 1024)).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;
const timeText = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-US', { timeZone: 'UTC', timeZoneName: 'short' }) : 'None';
const uptimeText = (seconds: number | null) =>
  seconds === null ? 'Unknown' : `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;

const cellClasses = 'px-3 py-2 text-sm text-gray-800';
const headClasses = 'px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-gray-600';

/** A plain table: the queue tables are short and their rows open without any library. */
const SimpleTable = ({
  label,
  headers,
  children,
  empty,
}: {
  label: string;
  headers: readonly string[];
  children: ReactNode;
  empty: boolean;
}) => (
  // A focusable region, so keyboard users can scroll a table wider than the screen.
  <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={`${label}, scrollable`}>
    <table className="min-w-full divide-y divide-gray-200" aria-label={label}>
      <thead>
        <tr>
          {headers.map((header) => (
            <th key={header} scope="col" className={headClasses}>
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-gray-100">
        {empty ? (
          <tr>
            <td className={cellClasses} colSpan={headers.length}>
              {tableTexts.noData}
            </td>
          </tr>
        ) : (
          children
        )}
      </tbody>
    </table>
  </div>
);

const Unavailable = ({ what, error }: { what: string; error: string }) => (
  <p role="alert" className="text-sm text-red-700">
    {what} is unavailable: {error}
  </p>
);

const temporalOf = (data: QueuesResponse, queue: JobQueue) =>
  data.temporal.available ? data.temporal.queues.find((row) => row.name === queue.taskQueue) : undefined;

/**
 * /devops/queues (admin.md sections 2 and 9): the platform's work queues, polled every 5 s and paused
 * while a row is open. Jobs by state per kind with the clears, Temporal task queues with backlog and
 * pollers, projection lag, the ledger outbox, Kafka consumer lag and the read store's server.
 */
export const WorkQueuesPage = () => {
  const [openRows, setOpenRows] = useState<ReadonlySet<string>>(() => new Set());
  const paused = openRows.size > 0;
  const queues = useWorkQueues(paused);
  const clear = useClearQueue();
  const [confirming, setConfirming] = useState<{ queue: JobQueue; status: QueueClearStatus } | null>(null);
  const [notice, setNotice] = useTimedMessage();
  const [failure, setFailure] = useState<string | null>(null);
  const data = queues.data;

  const toggle = (name: string) =>
    setOpenRows((current) => {
      const next = new Set(current);
      if (!next.delete(name)) next.add(name);
      return next;
    });

  const runClear = async () => {
    if (!confirming) return;
    setFailure(null);
    try {
      const answer = await clear.mutateAsync({ queue: confirming.queue.name, status: confirming.status });
      setConfirming(null);
      setNotice(answer.message);
    } catch {
      setConfirming(null);
      setFailure(devopsTexts.clearFailed);
    }
  };

  return (
    <PageFrame title="Work Queues">
      <SuccessCallout message={notice} />
      <ErrorCallout message={failure} />
      <p className="text-sm text-gray-600" role="status" data-testid="poll-state">
        {paused
          ? 'Polling paused while a row is open.'
          : `Polling every 5 seconds${data ? `; last read ${timeText(data.polledAt)}` : ''}.`}
      </p>
      {queues.isError && <ErrorCallout message={queues.error.message} />}
      {!data && !queues.isError && <p className="text-sm text-gray-600">{tableTexts.loading}</p>}
      {data && (
        <>
          <div className="grid grid-cols-2 gap-4 lg:grid-cols-5" aria-label="Read store">
            <StatCard
              label={`Read store (${data.readStore.kind === 'embedded' ? 'embedded' : 'MongoDB'})`}
              value={<span className="text-xl">{data.readStore.version}</span>}
            />
            <StatCard label="Memory" value={bytesText(data.readStore.memoryBytes)} />
            <StatCard label="Clients" value={data.readStore.clients ?? 'Unknown'} />
            <StatCard label="Uptime" value={uptimeText(data.readStore.uptimeSeconds)} />
            <StatCard label="Outbox depth" value={data.outbox.depth} />
          </div>

          <Card>
            <h2 className="mb-3 text-base font-semibold text-gray-900">Job queues</h2>
            <SimpleTable
              label="Job queues"
              headers={['', 'Queue', 'Waiting', 'Locked', 'Failed', 'Completed', 'Cancelled', 'Actions']}
              empty={data.jobs.length === 0}
            >
              {data.jobs.map((queue) => {
                const open = openRows.has(queue.name);
                const temporal = temporalOf(data, queue);
                return (
                  <Fragment key={queue.name}>
                    <tr className={queue.failed > 0 ? 'bg-amber-50' : undefined}>
                      <td className={cellClasses}>
                        <Button
                          size="xs"
                          variant="light"
                          aria-expanded={open}
                          aria-label={`Details of the ${queue.name} queue`}
                          onClick={() => toggle(queue.name)}
                        >
                          {open ? '−' : '+'}
                        </Button>
                      </td>
                      <td className={cellClasses}>{queue.name}</td>
                      <td className={cellClasses}>{queue.waiting}</td>
                      <td className={cellClasses}>{queue.locked}</td>
                      <td className={cellClasses}>{queue.failed}</td>
                      <td className={cellClasses}>{queue.completed}</td>
                      <td className={cellClasses}>{queue.cancelled}</td>
                      <td className={`${cellClasses} flex flex-wrap gap-1`}>
                        {clearButtons.map((button) => (
                          <Button
                            key={button.status}
                            size="xs"
                            variant="secondary"
                            aria-label={`${button.label} of the ${queue.name} queue`}
                            onClick={() => {
                              setNotice(null);
                              setConfirming({ queue, status: button.status });
                            }}
                          >
                            {button.label}
                          </Button>
                        ))}
                      </td>
                    </tr>
                    {open && (
                      <tr>
                        <td className={cellClasses} colSpan={8}>
                          <dl className="grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-2">
                            <dt className="font-medium">Temporal task queue</dt>
                            <dd>{queue.taskQueue}</dd>
                            <dt className="font-medium">Oldest waiting job</dt>
                            <dd>{timeText(queue.oldestWaitingAt)}</dd>
                            <dt className="font-medium">Failures cleared</dt>
                            <dd>{timeText(queue.failedClearedAt)}</dd>
                            <dt className="font-medium">Backlog (workflow / activity tasks)</dt>
                            <dd>
                              {temporal
                                ? `${temporal.workflowBacklog} / ${temporal.activityBacklog}`
                                : 'Unknown'}
                            </dd>
                            <dt className="font-medium">Pollers</dt>
                            <dd>
                              {temporal
                                ? temporal.pollers.length === 0
                                  ? 'No worker is polling'
                                  : temporal.pollers.map((p) => `${p.identity} (${p.type})`).join(', ')
                                : 'Unknown'}
                            </dd>
                          </dl>
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </SimpleTable>
          </Card>

          <Card>
            <h2 className="mb-3 text-base font-semibold text-gray-900">Temporal task queues</h2>
            {data.temporal.available ? (
              <>
                <p className="mb-2 text-sm text-gray-600">
                  Temporal {data.temporal.serverVersion ?? ''} at {data.temporal.address}, namespace{' '}
                  {data.temporal.namespace}
                </p>
                <SimpleTable
                  label="Temporal task queues"
                  headers={['Task queue', 'Concern', 'Workflow backlog', 'Activity backlog', 'Pollers']}
                  empty={data.temporal.queues.length === 0}
                >
                  {data.temporal.queues.map((queue) => (
                    <tr key={queue.name}>
                      <td className={cellClasses}>{queue.name}</td>
                      <td className={cellClasses}>{queue.concern}</td>
                      <td className={cellClasses}>{queue.workflowBacklog}</td>
                      <td className={cellClasses}>{queue.activityBacklog}</td>
                      <td className={cellClasses}>{queue.pollers.length}</td>
                    </tr>
                  ))}
                </SimpleTable>
              </>
            ) : (
              <Unavailable what="Temporal" error={data.temporal.error} />
            )}
          </Card>

          <div className="grid grid-cols-1 gap-4">
            <Card>
              <h2 className="mb-3 text-base font-semibold text-gray-900">Projection lag</h2>
              <SimpleTable
                label="Projection lag"
                headers={['Read model', 'Version', 'Checkpoint', 'Head', 'Lag']}
                empty={data.projections.length === 0}
              >
                {data.projections.map((row) => (
                  <tr key={row.name} className={row.lag > 0 ? 'bg-amber-50' : undefined}>
                    <td className={cellClasses}>
                      {row.name}
                      {row.rebuilding ? ' (rebuilding)' : ''}
                    </td>
                    <td className={cellClasses}>{row.version}</td>
                    <td className={cellClasses}>{row.checkpoint}</td>
                    <td className={cellClasses}>{row.head}</td>
                    <td className={cellClasses}>{row.lag}</td>
                  </tr>
                ))}
              </SimpleTable>
            </Card>
            <Card>
              <h2 className="mb-3 text-base font-semibold text-gray-900">Kafka consumer lag</h2>
              {data.kafka.available ? (
                <SimpleTable
                  label="Kafka consumer lag"
                  headers={['Consumer group', 'State', 'Members', 'Topics', 'Lag']}
                  empty={data.kafka.groups.length === 0}
                >
                  {data.kafka.groups.map((group) => (
                    <tr key={group.groupId}>
                      <td className={cellClasses}>{group.groupId}</td>
                      <td className={cellClasses}>{group.state}</td>
                      <td className={cellClasses}>{group.members}</td>
                      <td className={cellClasses}>
                        {group.topics.map((t) => `${t.topic}: ${t.lag}`).join(', ')}
                      </td>
                      <td className={cellClasses}>{group.lag}</td>
                    </tr>
                  ))}
                </SimpleTable>
              ) : (
                <Unavailable what="Kafka" error={data.kafka.error} />
              )}
              <p className="mt-3 text-sm text-gray-600">
                Ledger outbox: {data.outbox.depth} entries waiting
                {data.outbox.oldestAt ? `, oldest ${timeText(data.outbox.oldestAt)}` : ''}.
              </p>
            </Card>
          </div>
        </>
      )}
      {confirming && (
        <TypedConfirmDialog
          title={`${clearButtons.find((b) => b.status === confirming.status)?.label ?? 'Clear'}: ${confirming.queue.name}`}
          message={`The ${confirming.queue.name} queue's ${
            clearButtons.find((b) => b.status === confirming.status)?.what ?? ''
          }.`}
          word={devopsTexts.clearWord}
          confirmLabel="Clear"
          pending={clear.isPending}
          onConfirm={() => void runClear()}
          onCancel={() => {
            setConfirming(null);
            setNotice(cancellingText('clear queue'));
          }}
        />
      )}
    </PageFrame>
  );
};
