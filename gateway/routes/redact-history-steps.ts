import type { HistoryStep } from '../../commands/stream-history';
import { redactUrl } from '../plugins/log-redaction';
import { redactSecrets } from './redact-secrets';

/**
 * A replay's steps as anyone may see them, the admin route and the operator's `ledgerwise history`
 * alike: secret fields (password and token hashes, keys, credentials) of events and folded states
 * redacted, and a link's token removed from recorded URLs (events recorded before URLs were redacted
 * at the source may still hold one).
 */
export const redactHistorySteps = (steps: readonly HistoryStep[]): HistoryStep[] =>
  redactSecrets([...steps]).map((step) => ({
    ...step,
    event: {
      ...step.event,
      metadata: {
        ...step.event.metadata,
        url: step.event.metadata.url && redactUrl(step.event.metadata.url),
      },
    },
  }));
