import { ApplicationFailure } from '@temporalio/common';

/**
 * How a connector fails. A failure the user can act on (reconnect, wait for a limit, fix the company)
 * is non-retryable and says what to do in words: the sync's failure reason shows it on the Platforms
 * page. Anything else stays retryable: the activity is retried and resumes from its checkpoint.
 */
export const failureTypes = {
  /** The platform refused to renew the authorisation: the seller is marked REVOKED. */
  revoked: 'ConnectorAuthRevoked',
  /** The platform's rate limit asks for a longer wait than a sync sits through. */
  limited: 'ConnectorRateLimited',
  /** The platform refused the request for a reason the user can fix (permissions, subscription). */
  refused: 'ConnectorRefused',
  /** Nothing in the vault to call the platform with. */
  noCredentials: 'ConnectorNoCredentials',
} as const;

export const userFailure = (message: string, type: (typeof failureTypes)[keyof typeof failureTypes]) =>
  ApplicationFailure.nonRetryable(message, type);

/** A wait the platform asked for (HTTP 429 Retry-After) done by Temporal: the activity retries after it. */
export const retryAfter = (message: string, delayMs: number) =>
  ApplicationFailure.create({ message, type: 'ConnectorThrottled', nextRetryDelay: Math.max(1, delayMs) });
