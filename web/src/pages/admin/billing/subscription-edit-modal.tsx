import { Button } from '@tremor/react';
import { useMemo, useState, type FormEvent } from 'react';
import {
  billingMessages,
  type AdminBillingSubscription,
  type UpdateSubscriptionRequest,
} from '../../../../../contracts/api/billing';
import type { PaymentMethod } from '../../../../../contracts/events/billing';
import {
  useAdminPlans,
  useBillingProducts,
  useBillingTenants,
  useUpdateSubscription,
} from '../../../api/queries/admin-billing';
import { ErrorCallout } from '../../../components/error-callout';
import { ModalDialog } from '../../../components/modal-dialog';
import { TextBadge } from '../../../components/text-badge';
import { CheckboxField } from '../../../forms/checkbox-field';
import { SelectField } from '../../../forms/select-field';
import { TextField } from '../../../forms/text-field';
import {
  firstPickableDay,
  markOf,
  paymentMethodChoices,
  pickableDateError,
  productChangesOf,
  productRowsOf,
  quantityError,
  type ProductRow,
} from './subscription-edit-rules';

const markLabels = { new: 'New', expiring: 'Expiring', deleted: 'Deleted' } as const;
const markColors = { new: 'green', expiring: 'amber', deleted: 'red' } as const;

const errorText = (error: unknown) =>
  `${billingMessages.updateFailed}${error instanceof Error && error.message ? ` ${error.message}` : ''}`;

/**
 * The admin edit-subscription modal (admin.md sections 2, 4, 5 and 9): billing tenant, plan, payment
 * method, trial end date and products, with an optional resync with the payment provider.
 */
export const SubscriptionEditModal = ({
  subscription,
  onClose,
  onSaved,
}: {
  subscription: AdminBillingSubscription;
  onClose: () => void;
  onSaved: (message: string) => void;
}) => {
  const today = useMemo(() => new Date(), []);
  const update = useUpdateSubscription();
  const tenants = useBillingTenants(true);
  const plans = useAdminPlans();
  const products = useBillingProducts(true);
  const [billingTenantId, setBillingTenantId] = useState(String(subscription.BillingTenantId));
  const [planId, setPlanId] = useState(String(subscription.Plan.Id));
  const [paymentMethod, setPaymentMethod] = useState<string>(subscription.PaymentMethod ?? '');
  const [trialEnd, setTrialEnd] = useState('');
  const [rows, setRows] = useState<ProductRow[]>(() => productRowsOf(subscription.AllProducts, today));
  const [adding, setAdding] = useState('');
  const [resync, setResync] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [checked, setChecked] = useState(false);

  const planOptions = (plans.data?.plans ?? [])
    .filter((plan) => plan.Active || plan.Id === subscription.Plan.Id)
    .map((plan) => ({ value: String(plan.Id), label: `${plan.Name} (${plan.Identifier})` }));
  const tenantOptions = (tenants.data?.tenants ?? []).map((tenant) => ({
    value: String(tenant.Id),
    label: `${tenant.Name ?? 'Unnamed'} (${tenant.Id})`,
  }));
  if (!tenantOptions.some((option) => option.value === billingTenantId))
    tenantOptions.unshift({ value: billingTenantId, label: `Tenant ${billingTenantId}` });
  const held = new Set(rows.map((row) => row.Identifier));
  const addable = (products.data?.products ?? [])
    .filter((product) => !held.has(product.Identifier))
    .map((product) => ({ value: product.Identifier, label: `${product.Name} (${product.Identifier})` }));
  const trialError = pickableDateError(trialEnd, today);
  const rowErrors = rows.map((row) => (row.deleted ? null : quantityError(row.quantity)));

  const setRow = (index: number, change: Partial<ProductRow>) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...change } : row)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    setFailure(null);
    if (trialError || rowErrors.some(Boolean)) return;
    const body: UpdateSubscriptionRequest = { TenantId: subscription.TenantId };
    if (Number(billingTenantId) !== subscription.BillingTenantId)
      body.BillingTenantId = Number(billingTenantId);
    if (Number(planId) !== subscription.Plan.Id) body.PlanId = Number(planId);
    if (paymentMethod !== '' && paymentMethod !== subscription.PaymentMethod)
      body.PaymentMethod = paymentMethod as PaymentMethod;
    if (trialEnd !== '') body.StartedAt = trialEnd;
    const changes = productChangesOf(rows);
    if (changes.length > 0) body.Products = changes;
    try {
      await update.mutateAsync({ body, resyncStripe: resync });
      onSaved(
        `Updated the subscription of ${subscription.Tenant.Name ?? `tenant ${subscription.TenantId}`}.`,
      );
    } catch (error) {
      setFailure(errorText(error));
    }
  };

  return (
    <ModalDialog open title="Edit Subscription" width="wide" onClose={onClose}>
      <form
        noValidate
        aria-label="Edit subscription"
        className="space-y-4"
        onSubmit={(event) => void submit(event)}
      >
        <ErrorCallout message={failure} />
        <p className="text-sm text-gray-700">
          {subscription.Tenant.Name ?? 'Unnamed tenant'} ({subscription.TenantId}):{' '}
          {subscription.PaymentStatus}
          {subscription.StripeCustomerId ? `, Stripe customer ${subscription.StripeCustomerId}` : ''}
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            name="BillingTenantId"
            label="Billing tenant"
            value={billingTenantId}
            onValueChange={setBillingTenantId}
            options={tenantOptions}
          />
          <SelectField
            name="PlanId"
            label="Plan"
            value={planId}
            onValueChange={setPlanId}
            options={planOptions}
          />
          <SelectField
            name="PaymentMethod"
            label="Payment method"
            value={paymentMethod}
            onValueChange={setPaymentMethod}
            options={paymentMethodChoices(subscription)}
            blankLabel="None"
            hint={
              subscription.StripeCustomerId
                ? 'A Stripe customer exists: manual is no longer offered.'
                : undefined
            }
          />
          {subscription.TrialEndEditable ? (
            <div className="space-y-1">
              <label htmlFor="field-StartedAt" className="block text-sm font-medium text-gray-700">
                Trial end date
              </label>
              {/* A native date input: Tremor's TextInput has no date type; min keeps today and before out. */}
              <input
                id="field-StartedAt"
                name="StartedAt"
                type="date"
                className="w-full rounded-md border border-gray-300 px-3 py-2 text-sm"
                value={trialEnd}
                min={firstPickableDay(today)}
                aria-invalid={trialError ? true : undefined}
                aria-describedby={
                  trialError ? 'field-StartedAt-hint field-StartedAt-error' : 'field-StartedAt-hint'
                }
                onChange={(event) => setTrialEnd(event.target.value)}
              />
              <p id="field-StartedAt-hint" className="text-xs text-gray-500">
                Now {subscription.StartedAt.slice(0, 10)}; leave empty to keep it.
              </p>
              {trialError && (
                <p id="field-StartedAt-error" className="text-sm text-red-600">
                  {trialError}
                </p>
              )}
            </div>
          ) : (
            <p className="text-sm text-gray-600">
              Trial end date: {subscription.StartedAt.slice(0, 10)} (editable only while trialing or before
              the start).
            </p>
          )}
        </div>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-gray-700">Products</legend>
          {rows.length === 0 && <p className="text-sm text-gray-600">No products.</p>}
          <ul className="space-y-2">
            {rows.map((row, index) => {
              const mark = markOf(row, today);
              return (
                <li key={row.Identifier} className="flex flex-wrap items-end gap-3">
                  <span className="min-w-[12rem] text-sm text-gray-900">{row.Identifier}</span>
                  {mark && <TextBadge tone={markColors[mark]}>{markLabels[mark]}</TextBadge>}
                  <div className="w-28">
                    <TextField
                      name={`quantity-${row.Identifier}`}
                      label="Quantity"
                      value={row.quantity}
                      onValueChange={(quantity) => setRow(index, { quantity })}
                      disabled={row.deleted}
                      error={checked ? (rowErrors[index] ?? undefined) : undefined}
                    />
                  </div>
                  <Button
                    type="button"
                    variant="secondary"
                    onClick={() =>
                      row.stored === null
                        ? setRows((current) => current.filter((_, i) => i !== index))
                        : setRow(index, { deleted: !row.deleted })
                    }
                  >
                    {row.deleted ? `Keep ${row.Identifier}` : `Remove ${row.Identifier}`}
                  </Button>
                </li>
              );
            })}
          </ul>
          {addable.length > 0 && (
            <div className="flex items-end gap-2">
              <SelectField
                name="addProduct"
                label="Add a product"
                value={adding}
                onValueChange={setAdding}
                options={addable}
                blankLabel="Choose a product"
              />
              <Button
                type="button"
                variant="secondary"
                disabled={adding === ''}
                onClick={() => {
                  setRows((current) => [
                    ...current,
                    { Identifier: adding, stored: null, quantity: '1', deleted: false },
                  ]);
                  setAdding('');
                }}
              >
                Add
              </Button>
            </div>
          )}
        </fieldset>
        <CheckboxField
          name="resyncStripe"
          label="Resync with Stripe (push the subscription and read its payment status back)"
          checked={resync}
          onCheckedChange={setResync}
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
};
