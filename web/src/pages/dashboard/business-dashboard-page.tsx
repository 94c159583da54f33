import { Button, Callout, Card, Grid, Text, Title } from '@tremor/react';
import { Link, Navigate } from 'react-router';
import { JobProgressList } from '../../live/job-progress-bar';
import { useRunningJobs } from '../../live/running-jobs';
import { useOpenBillingPortal } from '../../api/queries/billing';
import { useConnectedSellers, useIntegrations } from '../../api/queries/platforms';
import { useRecipients } from '../../api/queries/recipients';
import { useTenant } from '../../api/queries/tenants';
import { usePendingInvites, useTeam } from '../../api/queries/users';
import { factsOf } from '../../session/session-facts';
import { useCurrentTenantId, useSession } from '../../session/session-query';
import { advisorNamesOf, isFreePlan, setupFactsOf, type DashboardData } from './business-facts';
import { useSaveSetupSteps } from './dashboard-progress-store';
import { businessSetupComplete, businessSteps, type SetupSteps } from './setup-progress';
import { SetupStepsCard, type SetupStepView } from './setup-steps-card';
import { ForecastCard } from './forecast-card';
import { ReceivablesCard } from './receivables-card';
import { PageFrame, StatCard, cardLinkClasses } from './stat-card';
import { trialDaysRemaining } from './trial-days';
import { useSetupDismissals } from './use-setup-dismissals';

const paymentMethodTexts: Record<string, string> = {
  manual: 'Manual',
  send_invoice: 'Invoice',
  card: 'Card',
  charge_automatically: 'Automatic charge',
};

/** Payment statuses after a failed charge (Stripe's invoice.payment_failed moves the subscription there). */
const failedPaymentStatuses = new Set(['past_due', 'unpaid']);

/**
 * A failed payment (issue 18): the tenant's admins see it on the dashboard with the way to fix it,
 * the payment provider's billing portal, whatever the setup progress.
 */
const FailedPaymentNotice = () => {
  const portal = useOpenBillingPortal();
  return (
    <div role="alert">
      <Callout title="Your last payment failed" color="red">
        We could not collect your subscription payment. Update your payment method to keep your reports and
        connections running.
        <div className="mt-3">
          <Button size="xs" color="red" loading={portal.isPending} onClick={() => portal.mutate()}>
            Update payment method
          </Button>
          {portal.error && <p className="mt-2 text-sm text-red-800">{portal.error.message}</p>}
        </div>
      </Callout>
    </div>
  );
};

const stepViews = (steps: SetupSteps): SetupStepView[] => {
  const views: SetupStepView[] = [{ key: 'account', label: 'Created account', state: 'completed' }];
  const add = (view: SetupStepView) => {
    if (steps[view.key as keyof SetupSteps] !== undefined) views.push(view);
  };
  add({
    key: 'addPlatform',
    label: 'Accounting platform',
    state: steps.addPlatform ?? 'pending',
    action: { to: '/platforms', text: 'Connect' },
  });
  add({
    key: 'firstReport',
    label: 'Report received',
    state: steps.firstReport ?? 'disabled',
    action: { to: '/reports', text: 'Request a report' },
    dismissible: true,
  });
  add({
    key: 'recipient',
    label: 'Added report recipient',
    state: steps.recipient ?? 'pending',
    action: { to: '/reports', text: 'Add recipient' },
    dismissible: true,
  });
  add({
    key: 'inviteUser',
    label: 'Invited user',
    state: steps.inviteUser ?? 'pending',
    action: { to: '/users', text: 'Invite' },
    dismissible: true,
  });
  add({
    key: 'subscriptionPayment',
    label: 'Payment method',
    state: steps.subscriptionPayment ?? 'disabled',
    action: { to: '/settings', text: 'Add payment method' },
  });
  return views;
};

/** The dashboard of a business (portal.md sections 2.3 and 4); firms have their own. */
export const BusinessDashboardPage = () => {
  const session = useSession();
  if (session.tenant?.Classification === 'FIRM') return <Navigate to="/advisor/overview" replace />;
  if (!session.tenant) return null;
  return <BusinessDashboard tenantId={session.tenant.Id} />;
};

const BusinessDashboard = ({ tenantId }: { tenantId: number }) => {
  const session = useSession();
  const facts = factsOf(session);
  const tenant = useTenant();
  const sellers = useConnectedSellers();
  const recipients = useRecipients();
  const team = useTeam();
  const invites = usePendingInvites(facts.isTenantAdmin || facts.isPlatformAdmin);
  const integrations = useIntegrations();
  const jobs = useRunningJobs();
  const { dismissed, dismiss, loaded } = useSetupDismissals(useCurrentTenantId() ?? tenantId);

  const ready = tenant.data && sellers.data && recipients.data && team.data;
  const data: DashboardData | null = ready
    ? {
        session,
        facts,
        tenant: tenant.data,
        sellers: sellers.data,
        recipients: recipients.data.rows,
        members: team.data.members,
        invites: invites.data?.invites ?? [],
        dismissed,
      }
    : null;
  const setup = data ? setupFactsOf(data) : null;
  const steps = setup ? businessSteps(setup) : {};
  useSaveSetupSteps({ tenantId, steps, ready: Boolean(setup) && loaded });

  const failed = [tenant, sellers, recipients, team].find((query) => query.isError);
  if (failed?.error)
    return (
      <PageFrame title="Dashboard">
        <p role="alert" className="text-sm text-red-700">
          {failed.error.message}
        </p>
      </PageFrame>
    );
  if (!data || !setup)
    return (
      <PageFrame title="Dashboard">
        <p role="status" className="text-sm text-gray-600">
          Loading...
        </p>
      </PageFrame>
    );

  const complete = businessSetupComplete(setup);
  const subscription = data.tenant.Subscription;
  const trialDays = trialDaysRemaining(subscription, new Date());
  const advisors = advisorNamesOf(data.members);
  const partner = data.tenant.AdvisoryPartner?.Name ?? null;
  const connectedIntegrations = (integrations.data?.rows ?? []).filter((row) => row.Active);
  const isAdmin = facts.isTenantAdmin || facts.isPlatformAdmin;

  return (
    <PageFrame title="Dashboard">
      {facts.isDemo && (
        <Callout title="You are exploring the Demo Client" color="blue">
          Its data is made up so you can try every report. Billing and connections are disabled here; switch
          companies to return to your own.
        </Callout>
      )}
      {isAdmin && !facts.isDemo && subscription && failedPaymentStatuses.has(subscription.PaymentStatus) && (
        <FailedPaymentNotice />
      )}
      {jobs.length > 0 && (
        <Card>
          <Title>Your data is on its way</Title>
          <div className="mt-3">
            <JobProgressList jobs={jobs} />
          </div>
        </Card>
      )}
      {!complete && (
        <SetupStepsCard
          title="Set up your account"
          steps={stepViews(steps)}
          onDismiss={dismiss}
          runningJobs={jobs}
        />
      )}
      {complete && (
        <Grid numItemsSm={2} numItemsLg={3} className="gap-4">
          <StatCard label="Team members" value={data.members.length}>
            <Link to="/users" className={cardLinkClasses}>
              Manage team
            </Link>
          </StatCard>
          <StatCard label="Report recipients" value={data.recipients.length}>
            {data.sellers.rows.length > 0 && (
              <Link to="/reports" className={cardLinkClasses}>
                Manage recipients
              </Link>
            )}
          </StatCard>
          <StatCard
            label="Integrations"
            value={connectedIntegrations.length === 0 ? 'None' : connectedIntegrations.length}
          >
            <Link to="/platforms" className={cardLinkClasses}>
              {connectedIntegrations.length === 0 ? 'Connect a CRM' : 'View platforms'}
            </Link>
          </StatCard>
          {subscription?.PaymentStatus === 'trialing' && (
            <StatCard label="Trial days remaining" value={trialDays} />
          )}
          {isAdmin && subscription && !facts.isDemo && (
            <StatCard
              label="Payment method"
              value={subscription.PaymentMethod ? paymentMethodTexts[subscription.PaymentMethod] : 'None'}
            >
              <Link to="/settings" className={cardLinkClasses}>
                Billing
              </Link>
            </StatCard>
          )}
          {isAdmin && !facts.isDemo && isFreePlan(subscription?.Plan.identifier) && (
            <StatCard label="Your plan" value={subscription?.Plan.name ?? 'Free'}>
              <Link to="/settings" className={cardLinkClasses}>
                Upgrade plan
              </Link>
            </StatCard>
          )}
        </Grid>
      )}
      {data.sellers.rows
        .filter((seller) => seller.MetricsDate !== null)
        .map((seller) => (
          <div key={seller.Id} className="space-y-6">
            <ForecastCard seller={seller} currency={data.tenant.Settings.Reporting.Currency} />
            <ReceivablesCard seller={seller} currency={data.tenant.Settings.Reporting.Currency} />
          </div>
        ))}
      {!facts.isFirm && (advisors.length > 0 || partner) && (
        <Card>
          <Title>Your advisors</Title>
          {partner && <Text className="mt-1">{partner}</Text>}
          {advisors.length > 0 && (
            <ul className="mt-2 list-inside list-disc text-sm text-gray-800">
              {advisors.map((name) => (
                <li key={name}>{name}</li>
              ))}
            </ul>
          )}
        </Card>
      )}
    </PageFrame>
  );
};
