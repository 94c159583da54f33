import type { AuditEntry } from '../../../../../contracts/api/audit';

/** admin.md section 8: the audit table's empty text. */
export const noHistoryText = 'No History Found';

/** Rows whose action is DELETE are highlighted as a warning (admin.md section 2). */
export const isWarningRow = (entry: Pick<AuditEntry, 'Action'>): boolean =>
  entry.Action.toUpperCase() === 'DELETE';

export const auditTimeText = (iso: string): string =>
  new Date(iso).toLocaleString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  });

/** The request body as readable text: JSON indented, nothing when there was none. */
export const bodyText = (body: unknown): string | null => {
  if (body === null || body === undefined || body === '') return null;
  if (typeof body === 'string') return body;
  return JSON.stringify(body, null, 2);
};

/** A stream id the replay API accepts (contracts/stream-history.ts). */
export const isStreamId = (text: string): boolean => /^[a-z]+-[\w-]+$/.test(text.trim());
