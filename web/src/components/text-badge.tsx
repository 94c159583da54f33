import type { ReactNode } from 'react';

/**
 * A small coloured label whose text meets WCAG AA contrast (Tremor's Badge text falls short of it):
 * the 800 shade on the 50 tint.
 */
const tones = {
  green: 'bg-emerald-50 text-emerald-800 ring-emerald-600/30',
  blue: 'bg-blue-50 text-blue-800 ring-blue-600/30',
  gray: 'bg-gray-50 text-gray-800 ring-gray-500/30',
  red: 'bg-red-50 text-red-800 ring-red-600/30',
  amber: 'bg-amber-50 text-amber-900 ring-amber-600/30',
} as const;

export type BadgeTone = keyof typeof tones;

export const TextBadge = ({ tone, children }: { tone: BadgeTone; children: ReactNode }) => (
  <span
    className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tones[tone]}`}
  >
    {children}
  </span>
);
