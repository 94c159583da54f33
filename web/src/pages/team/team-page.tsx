import { Button, Card } from '@tremor/react';
import { useCallback, useState } from 'react';
import type { TeamMember } from '../../../../contracts/api/users';
import type { InviteWorkflow } from '../../../../contracts/events/invite';
import { usePendingInvites, useTeam } from '../../api/queries/users';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { ModalDialog } from '../../components/modal-dialog';
import { useTimedMessage } from '../../components/use-timed-message';
import { factsOf } from '../../session/session-facts';
import { useSession } from '../../session/session-query';
import { AccessModal } from './access-modal';
import { EditUserForm, type EditableUser } from './edit-user-form';
import { InviteUserModal } from './invite-user-modal';
import { LeaveCompanyModal } from './leave-company-modal';
import { PendingInvitesTable } from './pending-invites-table';
import { leaveRefusal, TeamTable, type TeamViewer } from './team-table';

export const editableOf = (member: TeamMember): EditableUser => ({
  Id: member.Id,
  Name: member.Name,
  Email: member.Email,
  PrimaryClassification: member.PrimaryClassification,
  ActiveCampaignId: member.ActiveCampaignId,
  AssignToAllClients: member.AssignToAllClients,
  JobTitle: member.Membership.JobTitle,
  Role: member.Membership.Role,
});

/** The team page (/users): pending invites for the tenant admin, the team, invite and edit modals. */
export const TeamPage = () => {
  const session = useSession();
  const facts = factsOf(session);
  const admin = facts.isTenantAdmin || facts.isPlatformAdmin;
  const team = useTeam();
  const invites = usePendingInvites(admin);
  const [inviting, setInviting] = useState<InviteWorkflow | null>(null);
  const [editing, setEditing] = useState<TeamMember | null>(null);
  const [access, setAccess] = useState<TeamMember | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [notice, setNotice] = useTimedMessage();
  const [failure, setFailure] = useState<string | null>(null);

  const viewer: TeamViewer = {
    userId: session.user.Id,
    isTenantAdmin: facts.isTenantAdmin,
    isPlatformAdmin: facts.isPlatformAdmin,
    isAdvisor: facts.isAdvisor,
    isFirm: facts.isFirm,
  };
  const onError = useCallback((message: string) => setFailure(message), []);
  const onAccess = useCallback((member: TeamMember) => setAccess(member), []);
  const onLeave = useCallback(() => setLeaving(true), []);
  // A load failure is logged by the API client and shows as an empty table (portal.md section 8).
  const members = team.isError ? [] : team.data?.members;

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold text-gray-900">Team</h1>
        {admin && (
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setInviting('ACCOUNTING_ADMIN')}>
              Invite your accountant
            </Button>
            <Button onClick={() => setInviting('STANDARD')}>Invite user</Button>
          </div>
        )}
      </div>
      <SuccessCallout message={notice} />
      <ErrorCallout message={failure} />
      {admin && (
        <Card>
          <h2 className="mb-3 text-lg font-medium text-gray-900">Pending invites</h2>
          <PendingInvitesTable invites={invites.isError ? [] : invites.data?.invites} onError={onError} />
        </Card>
      )}
      <Card>
        <h2 className="mb-3 text-lg font-medium text-gray-900">Team members</h2>
        <TeamTable
          members={members}
          viewer={viewer}
          onEdit={setEditing}
          onAccess={onAccess}
          onLeave={onLeave}
          onError={onError}
        />
      </Card>
      {inviting && (
        <InviteUserModal
          open
          workflow={inviting}
          isFirm={facts.isFirm}
          onClose={() => setInviting(null)}
          onInvited={setNotice}
        />
      )}
      <ModalDialog open={editing !== null} title="Edit user" width="wide" onClose={() => setEditing(null)}>
        {editing && (
          <EditUserForm
            user={editableOf(editing)}
            editor={{
              isPlatformAdmin: facts.isPlatformAdmin,
              isTenantAdmin: facts.isTenantAdmin,
              isFirm: facts.isFirm,
            }}
            onDone={() => setEditing(null)}
            onCancel={() => setEditing(null)}
          />
        )}
      </ModalDialog>
      <AccessModal member={access} onClose={() => setAccess(null)} />
      <LeaveCompanyModal
        open={leaving}
        refusal={leaving ? leaveRefusal(viewer, members ?? []) : null}
        onClose={() => setLeaving(false)}
      />
    </div>
  );
};
