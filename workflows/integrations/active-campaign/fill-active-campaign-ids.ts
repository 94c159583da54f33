import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../../commands/command-handler';
import { tenantStream, userStream } from '../../../contracts/stream-ids';
import { systemActor } from '../../../domain/actor';
import { tenantDecider } from '../../../domain/tenant/tenant-decider';
import { userDecider } from '../../../domain/user/user-decider';
import { membershipsCollection } from '../../../projections/users/membership-counts';
import { usersCollection } from '../../../projections/users/user-view';
import { runSystemCommand } from '../../sync/system-commands';
import { tenantSummaries } from '../../../projections/tenant-lookup';
import type { CrmCompany, CrmContact } from '../crm/crm-connector';
import { cleanedKey } from '../crm/matching';

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

/**
 * During an ActiveCampaign sync: the account (organisation) whose name is the company's, compared as
 * the Cleaned name match compares names, becomes the tenant's ActiveCampaignId. Two accounts with
 * that name leave it unset: a wrong link is worse than none. An id set already is kept unless the
 * account found is another one.
 */
export const fillTenantActiveCampaignId = async (
  deps: FillActiveCampaignIdsDeps,
  input: { tenantId: number; accounts: readonly Pick<CrmCompany, 'crmId' | 'name'>[] },
): Promise<{ tenantFilled: boolean }> => {
  const tenant = (await tenantSummaries(deps.db, [input.tenantId])).get(input.tenantId);
  if (!tenant) return { tenantFilled: false };
  const key = cleanedKey(tenant.Name);
  const found = input.accounts.filter((account) => cleanedKey(account.name) === key);
  if (found.length !== 1) return { tenantFilled: false };
  const accountId = found[0]!.crmId;
  const result = await runSystemCommand(
    {
      writeSide: deps.writeSide,
      workflowId: deps.workflowId,
      tenantId: input.tenantId,
      process: 'integration-sync',
    },
    tenantDecider,
    {
      streamId: tenantStream(input.tenantId),
      step: `active-campaign-id:tenant:${accountId}`,
      command: {
        type: 'ChangeTenantActiveCampaignId',
        data: { activeCampaignId: accountId },
        actor: systemActor,
        now: deps.now(),
      },
    },
  );
  return { tenantFilled: result.events.length > 0 };
};
