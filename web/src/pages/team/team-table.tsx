import { Button } from '@tremor/react';
import { useMemo, useState } from 'react';
import type { TeamMember } from '../../../../contracts/api/users';
import { useUpdateUser } from '../../api/queries/users';
import type { DataColumn } from '../../table/data-columns';
import { DataTable } from '../../table/data-table';
import { tableTexts } from '../../table/empty-texts';
import { roleLabels } from './role-options';

export type TeamViewer = {
  userId: number;
  isTenantAdmin: boolean;
  isPlatformAdmin: boolean;
  isAdvisor: boolean;
  isFirm: boolean;
};

type ReportFlag = 'SendWeekly' | 'SendMonthly';

const flagNames: Record<ReportFlag, string> = { SendWeekly: 'weekly', SendMonthly: 'monthly' };

export const toggleFailedText = (field: ReportFlag, value: boolean) =>
  `Error Toggling ${field} to ${String(value)}. Error toggling field: Please try again or contact support.`;

/**
 * portal.md section 4, leaving a company: never a firm; only an advisor, and only while another active
 * advisor or active admin remains.
 */
export const leaveRefusal = (viewer: TeamViewer, members: readonly TeamMember[]): string | null => {
  if (viewer.isFirm) return 'You cannot leave an advisory firm.';
  if (!viewer.isAdvisor) return 'Only an advisor can leave a company.';
  const others = members.filter(
    (member) =>
      member.Id !== viewer.userId &&
      member.Membership.Status === 'ACTIVE' &&
      (member.Membership.Role === 'ADMIN' || member.Membership.Classification === 'ADVISOR'),
  );
  return others.length === 0 ? 'Another active advisor or administrator must remain in the company.' : null;
};

const searchTextOf = (member: TeamMember) => `${member.Name} ${member.Email}`;

const Toggle = (props: {
  label: string;
  checked: boolean;
  disabled: boolean;
  onChange: (value: boolean) => void;
}) => (
  <input
    type="checkbox"
    role="switch"
    aria-label={props.label}
    checked={props.checked}
    disabled={props.disabled}
    onChange={(event) => props.onChange(event.target.checked)}
    className="h-4 w-4 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600 disabled:opacity-50"
  />
);

type TeamTableProps = {
  members: readonly TeamMember[] | undefined;
  viewer: TeamViewer;
  onEdit: (member: TeamMember) => void;
  onAccess: (member: TeamMember) => void;
  onLeave: () => void;
  onError: (message: string) => void;
};

/** The team: name, role, job function, report toggles, access, edit and leave (portal.md section 2.3). */
export const TeamTable = ({ members, viewer, onEdit, onAccess, onLeave, onError }: TeamTableProps) => {
  const { mutateAsync: updateUser } = useUpdateUser();
  const [busy, setBusy] = useState<string | null>(null);
  const admin = viewer.isTenantAdmin || viewer.isPlatformAdmin;

  const columns = useMemo((): DataColumn<TeamMember>[] => {
    const toggleReports = async (member: TeamMember, field: ReportFlag, value: boolean) => {
      setBusy(`${member.Id}-${field}`);
      try {
        await updateUser({ userId: member.Id, body: { [field]: value } });
      } catch {
        onError(toggleFailedText(field, value));
      } finally {
        setBusy(null);
      }
    };
    const reportColumn = (field: ReportFlag, header: string): DataColumn<TeamMember> => ({
      id: field,
      header,
      value: (member) => member.Membership[field],
      cell: (member) => (
        <Toggle
          label={`Send ${flagNames[field]} reports to ${member.Name}`}
          checked={member.Membership[field]}
          // A tenant admin manages everyone's report emails; others only their own (portal.md section 6).
          disabled={busy !== null || (!admin && member.Id !== viewer.userId)}
          onChange={(value) => void toggleReports(member, field, value)}
        />
      ),
    });
    return [
      {
        id: 'Name',
        header: 'Name',
        value: (member) => member.Name,
        sortable: true,
        searchable: true,
        cell: (member) => (
          <div>
            <div className="font-medium text-gray-900">{member.Name}</div>
            <div className="break-all text-xs text-gray-500">{member.Email}</div>
          </div>
        ),
      },
      { id: 'Role', header: 'Role', value: (member) => roleLabels[member.Membership.Role], sortable: true },
      {
        id: 'JobTitle',
        header: 'Job function',
        value: (member) => member.Membership.JobTitle,
        sortable: true,
        hideOnMobile: true,
      },
      reportColumn('SendWeekly', 'Send weekly'),
      reportColumn('SendMonthly', 'Send monthly'),
      {
        id: 'Access',
        header: 'Access',
        value: (member) => member.Membership.Status,
        cell: (member) => (
          <Toggle
            label={`Access for ${member.Name}`}
            checked={member.Membership.Status === 'ACTIVE'}
            // Nobody disables themselves: it would lock them out of the company they manage.
            disabled={!admin || member.Id === viewer.userId}
            onChange={() => onAccess(member)}
          />
        ),
      },
    ];
  }, [updateUser, busy, admin, viewer.userId, onAccess, onError]);

  return (
    <DataTable
      label="Team"
      data={members}
      columns={columns}
      searchText={searchTextOf}
      getRowId={(member) => String(member.Id)}
      emptyText={tableTexts.noUsers}
      noMatchText={tableTexts.noUsers}
      searchLabel="Search the team"
      initialSort={{ id: 'Name' }}
      rowActions={(member) => (
        <>
          {(admin || member.Id === viewer.userId) && (
            <Button
              size="xs"
              variant="secondary"
              onClick={() => onEdit(member)}
              aria-label={`Edit ${member.Name}`}
            >
              Edit
            </Button>
          )}
          {member.Id === viewer.userId && !viewer.isFirm && viewer.isAdvisor && (
            <Button size="xs" variant="light" color="red" onClick={onLeave}>
              Leave company
            </Button>
          )}
        </>
      )}
    />
  );
};
