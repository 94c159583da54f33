import { allocateId } from '../../commands/id-allocator';
import { runWithRequestContext, systemActorId } from '../../commands/request-context';
import type { RecordedEvent } from '../../contracts/events/envelope';
import { SellerConnected } from '../../contracts/events/seller';
import { recipientStream, userStream } from '../../contracts/stream-ids';
import { systemActor } from '../../domain/actor';
import { recipientDecider } from '../../domain/recipient/recipient-decider';
import { userDecider } from '../../domain/user/user-decider';
import { startCheckpointedReactor, type ReactorDeps } from '../checkpointed-reactor';
import { readState, runSystemCommand } from '../sync/system-commands';

const process = 'connector-recipient';

/** The request that subscribes a seller's connector: one per seller, ever. */
export const connectorRecipientRequestId = (sellerId: number) => `${process}:seller-${sellerId}`;

const userIdOf = (actor: string): number | null => {
  const id = /^user:(\d+)$/.exec(actor)?.[1];
  return id === undefined ? null : Number(id);
};

/**
 * The member who connects a company's platform receives its reports (portal.md section 2.3: the
 * Connected modal promises the first emailed report, and the setup's recipient step is done only
 * with more than one recipient, so the first is the connector). A platform admin connecting for a
 * customer, or a member no longer active there, is not subscribed; reconnecting subscribes nobody.
 */
const subscribeConnector = async (deps: ReactorDeps, event: RecordedEvent) => {
  const { data } = SellerConnected.parse({ type: event.type, data: event.data });
  const userId = userIdOf(event.metadata.actor);
  if (userId === null) return;
  const user = await readState(deps.writeSide, userDecider, userStream(userId));
  const membership = user.status === 'registered' ? user.memberships[data.tenantId] : undefined;
  if (membership?.status !== 'ACTIVE') return;
  // A member who turned both report emails off asked for none.
  if (!membership.sendWeekly && !membership.sendMonthly) return;
  const requestId = connectorRecipientRequestId(data.sellerId);
  const now = new Date();
  const recipientId = await runWithRequestContext(
    { actor: systemActorId(process), tenantId: data.tenantId },
    () => allocateId(deps.writeSide.store, { category: 'recipient', commandId: requestId, now }),
  );
  const existing = await readState(deps.writeSide, recipientDecider, recipientStream(recipientId));
  if (existing.status !== 'none') return;
  await runSystemCommand(
    { writeSide: deps.writeSide, workflowId: requestId, tenantId: data.tenantId, process },
    recipientDecider,
    {
      streamId: recipientStream(recipientId),
      step: 'subscribe',
      command: {
        type: 'SubscribeRecipient',
        now,
        data: {
          recipientId,
          tenantId: data.tenantId,
          sellerId: data.sellerId,
          subscriber: { userId },
          // The member's own report preferences in this company (the team page's toggles).
          sendWeekly: membership.sendWeekly,
          sendMonthly: membership.sendMonthly,
          actor: systemActor,
          subscriberAlreadySubscribed: false,
        },
      },
    },
  );
  deps.logger.info({ sellerId: data.sellerId, userId, recipientId }, 'connector subscribed to reports');
};

export const startConnectorRecipientReactor = (
  deps: ReactorDeps & { retryMs?: number },
): { stop: () => Promise<void> } =>
  startCheckpointedReactor(deps, {
    name: 'connector-recipient',
    eventTypes: ['SellerConnected'],
    handle: (event) => subscribeConnector(deps, event),
  });
