import { Callout } from '@tremor/react';

/** A form-level failure, announced to screen readers as it appears. */
export const ErrorCallout = ({ message }: { message: string | null }) =>
  message ? (
    <div role="alert">
      <Callout title={message} color="red" />
    </div>
  ) : null;

export const SuccessCallout = ({ message }: { message: string | null }) =>
  message ? (
    <div role="status">
      <Callout title={message} color="emerald" />
    </div>
  ) : null;
