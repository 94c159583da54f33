import { useQuery } from '@tanstack/react-query';
import { Badge, Card, Title, Text } from '@tremor/react';
import { HealthReport } from '../../contracts/health';

const fetchHealth = async (): Promise<HealthReport> => {
  const response = await fetch('/api/health');
  return HealthReport.parse(await response.json());
};

/** The app shell arrives with the portal issue; until then the page shows that the gateway is alive. */
export const App = () => {
  const health = useQuery({ queryKey: ['system', 'health'], queryFn: fetchHealth, refetchInterval: 10_000 });
  return (
    <main className="mx-auto max-w-3xl p-6">
      <Card>
        <Title>Ledgerwise</Title>
        <Text>Receivables and revenue analytics.</Text>
        <div className="mt-4 flex flex-wrap gap-2">
          {health.isPending && <Badge color="gray">Checking the gateway...</Badge>}
          {health.isError && <Badge color="red">The operation failed to reach our servers.</Badge>}
          {health.data?.checks.map((c) => (
            <Badge key={c.name} color={c.ok ? 'emerald' : 'red'}>
              {c.name}: {c.ok ? 'healthy' : (c.detail ?? 'unhealthy')}
            </Badge>
          ))}
        </div>
      </Card>
    </main>
  );
};
