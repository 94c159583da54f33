import { streamHistory } from '../commands/stream-history';
import type { Config } from '../contracts/config';
import { isAppError } from '../contracts/errors';
import { openEventSource } from '../commands/open-event-source';
import { redactHistorySteps } from '../gateway/routes/redact-history-steps';

/** `ledgerwise history <streamId> [--from=N] [--limit=N]`: an operator's replay of one aggregate, as JSON lines. */
export const printStreamHistory = async (config: Config, args: string[]): Promise<number> => {
  const [streamId, ...options] = args;
  if (!streamId) {
    process.stderr.write('Usage: ledgerwise history <streamId> [--from=N] [--limit=N]\n');
    return 2;
  }
  const option = (name: string) => {
    const value = options.find((o) => o.startsWith(`--${name}=`))?.split('=')[1];
    return value === undefined ? undefined : Number(value);
  };
  const source = await openEventSource(config);
  try {
    const page = await streamHistory(source, streamId, {
      fromRevision: option('from'),
      maxCount: option('limit'),
    });
    // The same redaction as the admin route: an operator's terminal (and its scrollback) is no place for hashes.
    for (const { event, stateAfter } of redactHistorySteps(page.steps)) {
      process.stdout.write(
        `${JSON.stringify({ revision: event.revision, type: event.type, data: event.data, metadata: event.metadata, stateAfter })}\n`,
      );
    }
    if (page.nextRevision !== null) process.stderr.write(`More: --from=${page.nextRevision}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`${isAppError(error) ? error.userMessage : String(error)}\n`);
    return 1;
  } finally {
    await source.close();
  }
};
