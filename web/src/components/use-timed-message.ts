import { useEffect, useState } from 'react';

/** portal.md section 9: success alerts close after 2 seconds. */
export const successShownMs = 2_000;

/** A message that clears itself after `ms` (a success alert); setting it again restarts the clock. */
export const useTimedMessage = (ms = successShownMs) => {
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    if (message === null) return;
    const timer = window.setTimeout(() => setMessage(null), ms);
    return () => window.clearTimeout(timer);
  }, [message, ms]);
  return [message, setMessage] as const;
};
