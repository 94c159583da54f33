import { Card } from '@tremor/react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ErrorCallout } from '../../components/error-callout';
import { factsOf } from '../../session/session-facts';
import { useSession } from '../../session/session-query';
import { tableTexts } from '../../table/empty-texts';
import { EditUserForm, type EditableUser } from './edit-user-form';
import { useUser } from '../../api/queries/users';

/** Only paths inside the app are followed, so a crafted link cannot send the user elsewhere. */
const safeRedirect = (value: string | null) => (value && /^\/(?!\/)/.test(value) ? value : '/users');

/** /users/{userId}: the user edit form as a page; `?redirect=` says where to go after saving. */
export const UserPage = () => {
  const session = useSession();
  const facts = factsOf(session);
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const userId = Number(useParams().userId);
  const user = useUser(userId);
  const back = () => void navigate(safeRedirect(search.get('redirect')));
  const membership = user.data?.Tenants.find((tenant) => tenant.Id === session.tenant?.Id)?.Membership;
  const editable: EditableUser | null = user.data
    ? {
        Id: user.data.Id,
        Name: user.data.Name,
        Email: user.data.Email,
        PrimaryClassification: user.data.PrimaryClassification,
        ActiveCampaignId: user.data.ActiveCampaignId,
        AssignToAllClients: user.data.AssignToAllClients,
        JobTitle: membership?.JobTitle ?? null,
        Role: membership?.Role ?? null,
      }
    : null;

  return (
    <Card className="mx-auto max-w-3xl">
      <h1 className="mb-4 text-xl font-semibold text-gray-900">Edit user</h1>
      {user.isError && <ErrorCallout message={user.error.message} />}
      {!editable && !user.isError && <p role="status">{tableTexts.loading}</p>}
      {editable && (
        <EditUserForm
          user={editable}
          editor={{
            isPlatformAdmin: facts.isPlatformAdmin,
            isTenantAdmin: facts.isTenantAdmin,
            isFirm: facts.isFirm,
          }}
          onDone={back}
          onCancel={back}
        />
      )}
    </Card>
  );
};
