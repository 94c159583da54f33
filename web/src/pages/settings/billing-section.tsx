import { Button } from '@tremor/react';
import { useState } from 'react';
import { billingMessages, type BillingSubscription } from '../../../../contracts/api/billing';
import type { PaymentStatus } from '../../../../contracts/events/billing';
import {
  useChangePlan,
  useOpenBillingPortal,
  usePlans,
  useTenantSubscription,
} from '../../api/queries/billing';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { TextBadge, type BadgeTone } from '../../components/text-badge';
import { useTimedMessage } from '../../components/use-timed-message';
import { CancelSubscriptionModal, effectiveDateText } from './cancel-subscription-modal';

const statusTexts: Record<PaymentStatus, { text: string; tone: BadgeTone }> = {
  trialing: { text: 'Trial', tone: 'blue' },
  active: { text: 'Active', tone: 'green' },
  past_due: { text: 'Payment failed', tone: 'red' },
  unpaid: { text: 'Unpaid', tone: 'red' },
  canceled: { text: 'Canceled', tone: 'gray' },
  incomplete: { text: 'Incomplete', tone: 'amber' },
  incomplete_expired: { text: 'Expired', tone: 'gray' },
  paused: { text: 'Paused', tone: 'amber' },
};

const methodTexts: Record<NonNullable<BillingSubscription['PaymentMethod']>, string> = {
  manual: 'Invoiced manually',
  send_invoice: 'Invoice by email',
  card: 'Card',
  charge_automatically: 'Charged automatically',
};

/**
 * The plan picker of a direct subscription: the active plans of the company's kind. The server decides
 * who may change it (the paying tenant's admin) and what the plan unlocks.
 */
const ChangePlanForm = ({
  subscription,
  classification,
  onChanged,
}: {
  subscription: BillingSubscription;
  classification: string;
  onChanged: (message: string) => void;
}) => {
  const plans = usePlans(classification);
  const change = useChangePlan();
  const [planId, setPlanId] = useState(String(subscription.Plan.Id));
  const options = (plans.data?.plans ?? []).filter((plan) => plan.Active || plan.Id === subscription.Plan.Id);
  const chosen = options.find((plan) => String(plan.Id) === planId);
  return (
    <form
      aria-label="Change plan"
      className="flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (!chosen || chosen.Id === subscription.Plan.Id) return;
        change.mutate(chosen.Id, { onSuccess: () => onChanged(`Your plan is now ${chosen.Name}.`) });
      }}
    >
      <div className="space-y-1">
        <label htmlFor="field-plan" className="block text-sm font-medium text-gray-700">
          Plan
        </label>
        <select
          id="field-plan"
          className="rounded-md border border-gray-300 px-3 py-2 text-sm"
          value={planId}
          onChange={(event) => setPlanId(event.target.value)}
        >
          {options.map((plan) => (
            <option key={plan.Id} value={plan.Id}>
              {plan.Name}
            </option>
          ))}
        </select>
      </div>
      <Button
        type="submit"
        variant="secondary"
        loading={change.isPending}
        disabled={chosen?.Id === subscription.Plan.Id}
      >
        Change plan
      </Button>
      {change.error && <ErrorCallout message={`${billingMessages.updateFailed} ${change.error.message}`} />}
    </form>
  );
};

const Fact = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <div>
    <dt className="text-xs font-medium uppercase tracking-wide text-gray-600">{label}</dt>
    <dd className="mt-1 text-sm text-gray-900">{children}</dd>
  </div>
);

/**
 * Billing and subscription (portal.md section 2.3): the plan, its trial or payment state, the billing
 * portal and the cancel or downgrade modal. Payment is the business's own only on a direct
 * subscription; a client billed through its firm sees who pays. Demo tenants see it disabled.
 */
export const BillingSection = ({ classification, isDemo }: { classification: string; isDemo: boolean }) => {
  const answer = useTenantSubscription(!isDemo);
  const portal = useOpenBillingPortal();
  const [cancelling, setCancelling] = useState(false);
  const [notice, setNotice] = useTimedMessage(8000);
  const [failure, setFailure] = useState<string | null>(null);

  // The page's callout already says billing is disabled in a demo tenant (the spec's text).
  if (isDemo) return <p className="text-sm text-gray-700">A demo company has no subscription.</p>;
  if (answer.isPending) return <p role="status">Loading...</p>;
  if (answer.isError) return <ErrorCallout message={answer.error.message} />;
  const subscription = answer.data.Subscription;
  if (!subscription) return <p className="text-sm text-gray-700">{billingMessages.noSubscription}</p>;
  const status = statusTexts[subscription.PaymentStatus];
  const scheduled = subscription.ScheduledCancellation;

  const openPortal = async () => {
    setFailure(null);
    try {
      await portal.mutateAsync();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <div className="space-y-4">
      <SuccessCallout message={notice} />
      <ErrorCallout message={failure} />
      <dl className="grid gap-4 sm:grid-cols-3">
        <Fact label="Plan">{subscription.Plan.Name}</Fact>
        <Fact label="Status">
          <TextBadge tone={status.tone}>{status.text}</TextBadge>
          {subscription.PaymentStatus === 'trialing' && (
            <span className="ml-2">{`${subscription.TrialDaysRemaining} trial days left`}</span>
          )}
        </Fact>
        <Fact label="Payment method">
          {subscription.PaymentMethod ? methodTexts[subscription.PaymentMethod] : 'None yet'}
        </Fact>
      </dl>
      {scheduled && (
        <p role="status" className="text-sm text-amber-900">
          {scheduled.Intent === 'downgrade'
            ? `Moving to ${scheduled.DowngradeTo?.name ?? 'a smaller plan'} on ${effectiveDateText(scheduled.EffectiveAt)}.`
            : `Your subscription ends on ${effectiveDateText(scheduled.EffectiveAt)}.`}
        </p>
      )}
      {subscription.Direct && !scheduled && subscription.PaymentStatus !== 'canceled' && (
        <ChangePlanForm subscription={subscription} classification={classification} onChanged={setNotice} />
      )}
      {subscription.Direct ? (
        <div className="flex flex-wrap gap-2">
          <Button loading={portal.isPending} onClick={() => void openPortal()}>
            Manage billing
          </Button>
          {!scheduled && subscription.PaymentStatus !== 'canceled' && (
            // A plain button: Tremor's red secondary text (red-500) falls short of AA contrast on white.
            <button
              type="button"
              className="rounded-tremor-default border border-red-700 px-4 py-2 text-sm font-medium text-red-700 hover:bg-red-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700"
              onClick={() => setCancelling(true)}
            >
              Cancel or downgrade
            </button>
          )}
        </div>
      ) : (
        <p className="text-sm text-gray-700">Your advisory firm manages this subscription and its payment.</p>
      )}
      {cancelling && (
        <CancelSubscriptionModal
          subscription={subscription}
          classification={classification}
          onClose={() => setCancelling(false)}
          onDone={(message) => setNotice(message)}
        />
      )}
    </div>
  );
};
