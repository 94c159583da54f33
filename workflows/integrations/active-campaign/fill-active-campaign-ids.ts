import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../../commands/command-handler';
import { userStream } from '../../../contracts/stream-ids';
import { systemActor } from '../../../domain/actor';
import { userDecider } from '../../../domain/user/user-decider';
import { membershipsCollection } from '../../../projections/users/membership-counts';
import { usersCollection } from '../../../projections/users/user-view';
import { runSystemCommand } from '../../sync/system-commands';
import type { CrmContact } from '../crm/crm-connector';

export type FillActiveCampaignIdsDeps = {
  /** The read models (users and memberships). */
  db: Db;
  writeSide: CommandHandlerDeps;
  /** The sync's workflow id: command ids derive from it, so a retried activity appends nothing twice. */
  workflowId: string;
  now: () => Date;
};

/**
 * During an ActiveCampaign sync (ADR 48): each member of the tenant whose email is among the
 * account's contacts gets that contact's id as their ActiveCampaignId, so the admin users table links
 * to the contact. Called with each page of contacts; a user whose id is already that contact's is
 * left alone, and a user not found on a page is not cleared (they may be on another page).
 */
export const fillActiveCampaignIds = async (
  deps: FillActiveCampaignIdsDeps,
  input: { tenantId: number; contacts: readonly Pick<CrmContact, 'crmId' | 'email'>[] },
): Promise<{ usersFilled: number }> => {
  const byEmail = new Map<string, string>();
  for (const contact of input.contacts) {
    const email = contact.email?.trim().toLowerCase();
    if (email && !byEmail.has(email)) byEmail.set(email, contact.crmId);
  }
  if (byEmail.size === 0) return { usersFilled: 0 };
  const memberships = await membershipsCollection(deps.db);
  const members = await memberships
    .find({ tenantId: input.tenantId, userDeleted: false }, { projection: { userId: 1 } })
    .toArray();
  if (members.length === 0) return { usersFilled: 0 };
  const users = await (
    await usersCollection(deps.db)
  )
    .find(
      { _id: { $in: members.map((m) => m.userId) }, deleted: false },
      { projection: { _id: 1, Email: 1, ActiveCampaignId: 1 } },
    )
    .toArray();
  let usersFilled = 0;
  for (const user of users) {
    const contactId = byEmail.get(user.Email.trim().toLowerCase());
    if (!contactId || user.ActiveCampaignId === contactId) continue;
    const result = await runSystemCommand(
      {
        writeSide: deps.writeSide,
        workflowId: deps.workflowId,
        tenantId: input.tenantId,
        process: 'integration-sync',
      },
      userDecider,
      {
        streamId: userStream(user._id),
        step: `active-campaign-id:${user._id}:${contactId}`,
        command: {
          type: 'ChangeUserActiveCampaignId',
          data: { activeCampaignId: contactId },
          actor: systemActor,
          now: deps.now(),
        },
      },
    );
    if (result.events.length > 0) usersFilled += 1;
  }
  return { usersFilled };
};
