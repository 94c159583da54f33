import { Card } from '@tremor/react';
import type { ReactNode } from 'react';

/** The frame of the sign-in pages and the short message pages: a centred card, usable from 360 px. */
export const AuthLayout = ({ title, children }: { title: string; children: ReactNode }) => (
  <main className="flex min-h-screen items-start justify-center bg-gray-50 px-4 py-10 sm:items-center">
    <Card className="w-full max-w-md">
      <p className="mb-4 text-lg font-bold tracking-tight text-gray-900">Ledgerwise</p>
      <h1 className="text-xl font-semibold text-gray-900">{title}</h1>
      <div className="mt-4 space-y-4">{children}</div>
    </Card>
  </main>
);
