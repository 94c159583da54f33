import { Card, Metric, Text } from '@tremor/react';
import type { ReactNode } from 'react';

/** One figure of the dashboard with its caption, and optionally what to do about it. */
export const StatCard = ({
  label,
  value,
  children,
}: {
  label: string;
  value: ReactNode;
  children?: ReactNode;
}) => (
  <Card decoration="top" decorationColor="blue">
    <Text>{label}</Text>
    <Metric className="mt-1">{value}</Metric>
    {children && <div className="mt-3 flex flex-wrap gap-2">{children}</div>}
  </Card>
);

export const cardLinkClasses =
  'rounded-md border border-gray-300 px-3 py-1.5 text-sm font-medium text-gray-800 hover:bg-gray-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600';

/** A dashboard page: its heading, then its cards. */
export const PageFrame = ({ title, children }: { title: string; children: ReactNode }) => (
  <div className="mx-auto max-w-6xl space-y-6">
    <h1 className="text-xl font-semibold text-gray-900">{title}</h1>
    {children}
  </div>
);
