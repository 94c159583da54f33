import { Card, Text } from '@tremor/react';

/** A page of portal.md whose content comes in a later part of the work; the route and guards are real. */
export const PlaceholderPage = ({ title, note }: { title: string; note?: string }) => (
  <Card className="mx-auto max-w-3xl">
    <h1 className="text-xl font-semibold text-gray-900">{title}</h1>
    <Text className="mt-2">{note ?? 'This page comes in a later issue.'}</Text>
  </Card>
);
