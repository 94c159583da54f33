import { ApplicationFailure } from '@temporalio/common';

/**
 * The words a failed job or sync records: the cause's message when an activity failed with one (an
 * ActivityFailure wraps it), else the error's own, else `fallback`. Workflow code imports it, so it
 * uses no Node built-ins.
 */
export const failureReasonOf = (error: unknown, fallback: string): string => {
  const cause = error instanceof Error && 'cause' in error ? error.cause : undefined;
  if (cause instanceof ApplicationFailure && cause.message) return cause.message;
  return error instanceof Error && error.message ? error.message : fallback;
};
