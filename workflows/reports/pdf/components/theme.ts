import type { Style } from '@react-pdf/types';

/**
 * The reports' look: A4 portrait, Helvetica (a PDF standard font: nothing to embed), one accent
 * colour, green for good changes and red for bad ones, as receivables dashboards do.
 */
export const colors = {
  ink: '#1f2937',
  muted: '#6b7280',
  faint: '#e5e7eb',
  panel: '#f8fafc',
  accent: '#2563eb',
  accentSoft: '#93c5fd',
  good: '#16a34a',
  bad: '#dc2626',
  neutral: '#9ca3af',
  /** Aging buckets, from current to over 90 days. */
  aging: ['#22c55e', '#facc15', '#fb923c', '#f87171', '#b91c1c'] as const,
};

export const PAGE_PADDING = 36;
/** A4 is 841.89 points high. */
export const A4_HEIGHT = 841.89;
/** A4 is 595 points wide. */
export const CONTENT_WIDTH = 595 - 2 * PAGE_PADDING;

export const text = {
  base: { fontFamily: 'Helvetica', fontSize: 9, color: colors.ink } satisfies Style,
  bold: { fontFamily: 'Helvetica-Bold' } satisfies Style,
  muted: { color: colors.muted } satisfies Style,
  small: { fontSize: 7.5 } satisfies Style,
  title: { fontFamily: 'Helvetica-Bold', fontSize: 16 } satisfies Style,
  sectionTitle: { fontFamily: 'Helvetica-Bold', fontSize: 11, marginBottom: 6 } satisfies Style,
};
