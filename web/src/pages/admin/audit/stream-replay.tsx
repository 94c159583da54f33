import { Button } from '@tremor/react';
import { useState, type FormEvent } from 'react';
import { useStreamReplay } from '../../../api/queries/admin-audit';
import { ErrorCallout } from '../../../components/error-callout';
import { TextField } from '../../../forms/text-field';
import { tableTexts } from '../../../table/empty-texts';
import { auditTimeText, isStreamId } from './audit-rules';

/**
 * The platform admin's stream replay: one aggregate's events in order, each with the state it left
 * (GET /api/admin/streams/{streamId}/history, secrets redacted by the server), read a page at a time.
 */
export const StreamReplay = ({ initialStreamId }: { initialStreamId: string }) => {
  const [input, setInput] = useState(initialStreamId);
  const [inputError, setInputError] = useState<string | undefined>(undefined);
  const [streamId, setStreamId] = useState<string | null>(null);
  const [from, setFrom] = useState(0);
  const replay = useStreamReplay(streamId, from);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = input.trim();
    if (!isStreamId(id)) return setInputError('Enter a stream id such as tenant-42.');
    setInputError(undefined);
    setStreamId(id);
    setFrom(0);
  };

  const steps = replay.data?.steps ?? [];
  return (
    <section className="space-y-3" aria-labelledby="stream-replay-heading">
      <h2 id="stream-replay-heading" className="text-lg font-medium text-gray-900">
        Stream replay
      </h2>
      <p className="text-sm text-gray-700">The state after each event of one stream, oldest first.</p>
      <form
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
        aria-label="Stream replay"
        onSubmit={submit}
      >
        <div className="sm:w-72">
          <TextField
            name="streamId"
            label="Stream id"
            value={input}
            onValueChange={setInput}
            error={inputError}
          />
        </div>
        <Button type="submit" variant="secondary">
          Replay
        </Button>
      </form>
      {replay.isError && <ErrorCallout message={replay.error.message} />}
      {streamId !== null && !replay.data && !replay.isError && <p role="status">{tableTexts.loading}</p>}
      {replay.data && steps.length === 0 && <p role="status">No events in {replay.data.streamId}.</p>}
      {steps.length > 0 && (
        <ol className="space-y-2" aria-label={`Events of ${replay.data?.streamId ?? ''}`}>
          {steps.map((step) => (
            <li key={step.event.id} className="rounded-tremor-default border border-gray-200 bg-white p-3">
              <details>
                <summary className="cursor-pointer text-sm focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600">
                  <span className="font-medium text-gray-900">
                    #{step.event.revision} {step.event.type}
                  </span>{' '}
                  <span className="text-gray-700">{auditTimeText(step.event.recordedAt)}</span>
                </summary>
                <div className="mt-2 grid gap-3 md:grid-cols-2">
                  <div>
                    <h3 className="text-xs font-semibold uppercase text-gray-700">Event</h3>
                    <pre
                      tabIndex={0}
                      aria-label={`Event ${step.event.revision} data`}
                      className="max-h-80 overflow-auto focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600 whitespace-pre-wrap break-all rounded bg-gray-50 p-2 text-xs text-gray-900"
                    >
                      {JSON.stringify(step.event.data, null, 2)}
                    </pre>
                  </div>
                  <div>
                    <h3 className="text-xs font-semibold uppercase text-gray-700">State after</h3>
                    <pre
                      tabIndex={0}
                      aria-label={`State after event ${step.event.revision}`}
                      className="max-h-80 overflow-auto focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600 whitespace-pre-wrap break-all rounded bg-gray-50 p-2 text-xs text-gray-900"
                    >
                      {JSON.stringify(step.stateAfter, null, 2)}
                    </pre>
                  </div>
                </div>
              </details>
            </li>
          ))}
        </ol>
      )}
      {replay.data && (from > 0 || replay.data.nextRevision !== null) && (
        <div className="flex gap-2">
          <Button
            type="button"
            size="xs"
            variant="secondary"
            disabled={from === 0}
            onClick={() => setFrom(0)}
          >
            First events
          </Button>
          <Button
            type="button"
            size="xs"
            variant="secondary"
            disabled={replay.data.nextRevision === null}
            onClick={() => setFrom(replay.data?.nextRevision ?? from)}
          >
            Next events
          </Button>
        </div>
      )}
    </section>
  );
};
