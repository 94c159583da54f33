import { useEffect, useState } from 'react';

/** `value` once it has stopped changing for `delayMs`: the customers search asks the server per pause, not per key. */
export const useDebouncedValue = <T>(value: T, delayMs: number): T => {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
};
