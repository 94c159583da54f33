import { Callout, Card, Grid, Text, Title } from '@tremor/react';
import { Link, Navigate } from 'react-router';
import { useClientUsers, useClients } from '../../api/queries/clients';
import { useConnectedSellers } from '../../api/queries/platforms';
import { useTenant } from '../../api/queries/tenants';
import { usePendingInvites, useTeam } from '../../api/queries/users';
import { useRunningJobs } from '../../live/running-jobs';
import { factsOf } from '../../session/session-facts';
import { useCurrentTenantId, useSession } from '../../session/session-query';
import { setupFactsOf } from './business-facts';
import {
  clientPerformanceCount,
  clientPerformanceLimit,
  clientPerformanceOf,
  type ClientPerformance,
} from './client-performance';
import { useSaveSetupSteps } from './dashboard-progress-store';
import { dismissibleFirmSteps, firmSetupComplete, firmSteps, type SetupSteps } from './setup-progress';
import { SetupStepsCard, type SetupStepView } from './setup-steps-card';
import { PageFrame, StatCard, cardLinkClasses } from './stat-card';
import { useSetupDismissals } from './use-setup-dismissals';

const onboardingViews = (steps: SetupSteps): SetupStepView[] => [
  {
    key: 'addClient',
    label: 'Add your first client',
    state: steps.addClient ?? 'pending',
    action: { to: '/clients', text: 'Add client' },
  },
  {
    key: 'inviteUser',
    label: 'Invite an additional advisor',
    state: steps.inviteUser ?? 'pending',
    action: { to: '/users', text: 'Invite' },
    dismissible: dismissibleFirmSteps.has('inviteUser'),
  },
  {
    key: 'addPlatform',
    label: "Connect your firm's own platform",
    state: steps.addPlatform ?? 'pending',
    action: { to: '/platforms', text: 'Connect' },
    dismissible: dismissibleFirmSteps.has('addPlatform'),
  },
];

const ClientPerformanceCard = ({ criteria, count }: { criteria: ClientPerformance; count: number }) => {
  if (criteria === 'none') return null;
  return (
    <Card>
      <Title>Client Performance Summary</Title>
      {criteria === 'meets' ? (
        <Text className="mt-2">
          Your {count} connected {count === 1 ? 'client is' : 'clients are'} summarised in the Client
          Performance report, emailed to you with each reporting cycle.
        </Text>
      ) : (
        <Callout
          className="mt-2"
          title={`More than ${clientPerformanceLimit - 1} connected clients`}
          color="amber"
        >
          With {count} clients the summary no longer fits one report: their figures move to the Customer
          Sheet.
        </Callout>
      )}
      <div className="mt-3">
        <Link to="/clients" className={cardLinkClasses}>
          View clients
        </Link>
      </div>
    </Card>
  );
};

/** The advisor firm's dashboard (portal.md sections 2.3, 4 and 9). */
export const AdvisorDashboardPage = () => {
  const session = useSession();
  if (session.tenant?.Classification !== 'FIRM') return <Navigate to="/overview" replace />;
  return <AdvisorDashboard tenantId={session.tenant.Id} />;
};

const AdvisorDashboard = ({ tenantId }: { tenantId: number }) => {
  const session = useSession();
  const facts = factsOf(session);
  const isAdvisor = facts.isAdvisor || facts.isPlatformAdmin;
  const tenant = useTenant();
  const sellers = useConnectedSellers();
  const team = useTeam();
  const invites = usePendingInvites(facts.isTenantAdmin || facts.isPlatformAdmin);
  const clients = useClients(isAdvisor);
  const clientUsers = useClientUsers(isAdvisor);
  const jobs = useRunningJobs();
  const { dismissed, dismiss, loaded } = useSetupDismissals(useCurrentTenantId() ?? tenantId);

  const clientRows = clients.data?.clients ?? [];
  const realClients = clientRows.filter((client) => !client.isDemo);
  const ready = tenant.data && sellers.data && team.data && (!isAdvisor || clients.data);
  const setup = ready
    ? setupFactsOf({
        session,
        facts,
        tenant: tenant.data,
        sellers: sellers.data,
        recipients: [],
        members: team.data.members,
        invites: invites.data?.invites ?? [],
        clientCount: realClients.length,
        dismissed,
      })
    : null;
  const steps = setup ? firmSteps(setup) : {};
  useSaveSetupSteps({ tenantId, steps, ready: Boolean(setup) && loaded });

  const failed = [tenant, sellers, team, clients].find((query) => query.isError);
  if (failed?.error)
    return (
      <PageFrame title="Advisor Dashboard">
        <p role="alert" className="text-sm text-red-700">
          {failed.error.message}
        </p>
      </PageFrame>
    );
  if (!setup)
    return (
      <PageFrame title="Advisor Dashboard">
        <p role="status" className="text-sm text-gray-600">
          Loading...
        </p>
      </PageFrame>
    );

  const complete = firmSetupComplete(setup);
  const criteria = clientPerformanceOf(clientRows);
  const performanceCount = clientPerformanceCount(clientRows);
  const userCount = new Set((clientUsers.data?.users ?? []).map((row) => row.User.Id)).size;

  return (
    <PageFrame title="Advisor Dashboard">
      {!complete && (
        <SetupStepsCard
          title="Onboarding progress"
          steps={onboardingViews(steps)}
          onDismiss={dismiss}
          runningJobs={jobs}
        />
      )}
      {complete && (
        <Grid numItemsSm={2} className="gap-4">
          <StatCard label="Clients" value={realClients.length}>
            <Link to="/clients" className={cardLinkClasses}>
              Add
            </Link>
          </StatCard>
          <StatCard label="Users across your clients" value={userCount}>
            <Link to="/manage-users" className={cardLinkClasses}>
              Manage
            </Link>
          </StatCard>
        </Grid>
      )}
      <ClientPerformanceCard criteria={criteria} count={performanceCount} />
    </PageFrame>
  );
};
