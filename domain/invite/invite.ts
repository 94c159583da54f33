import { match } from 'ts-pattern';
import type { InviteEvent, InviteRole, InviteWorkflow } from '../../contracts/events/invite';

export type InviteStatus = 'pending' | 'sent' | 'cancelled' | 'joined';

/** The latest invitation of this address to this tenant; earlier ones are finished (cancelled or joined). */
export type Invitation = {
  inviteId: string;
  tenantId: number;
  email: string;
  name: string;
  role: InviteRole;
  jobTitle: string | null;
  subscribeToReports: boolean;
  classifyAsAdvisor: boolean;
  workflow: InviteWorkflow;
  status: InviteStatus;
  /** Hash of the emailed link's token; null for a v1 invitation, which no link can accept. */
  tokenHash: string | null;
  /** ISO time the link stops working. */
  expiresAt: string;
};

export type InviteState = { status: 'none' } | { status: 'invited'; current: Invitation };

export const initialInviteState = (): InviteState => ({ status: 'none' });

/** Events about an invitation other than the current one change nothing. */
const withCurrent = (state: InviteState, inviteId: string, status: InviteStatus): InviteState =>
  state.status === 'invited' && state.current.inviteId === inviteId
    ? { status: 'invited', current: { ...state.current, status } }
    : state;

export const evolveInvite = (state: InviteState, event: InviteEvent): InviteState =>
  match(event)
    .with({ type: 'InviteCreated' }, ({ data }): InviteState => ({
      status: 'invited',
      current: {
        inviteId: data.InviteId,
        tenantId: data.TenantId,
        email: data.Email,
        name: data.Name,
        role: data.Role,
        jobTitle: data.JobTitle,
        subscribeToReports: data.SubscribeToReports,
        classifyAsAdvisor: data.ClassifyAsAdvisor,
        workflow: data.Workflow,
        status: 'pending',
        tokenHash: data.TokenHash,
        expiresAt: data.ExpiresAt,
      },
    }))
    .with({ type: 'InviteSent' }, ({ data }) => withCurrent(state, data.InviteId, 'sent'))
    .with({ type: 'InviteCancelled' }, ({ data }) => withCurrent(state, data.InviteId, 'cancelled'))
    .with({ type: 'InviteJoined' }, ({ data }) => withCurrent(state, data.InviteId, 'joined'))
    .exhaustive();
