import type { InviteRole, InviteWorkflow } from '../../../../contracts/events/invite';
import type { TenantRole } from '../../../../contracts/events/user';

/** portal.md section 2.3: roles display as Administrator and Standard User. */
export const roleLabels: Record<TenantRole, string> = { ADMIN: 'Administrator', USER: 'Standard User' };

export type RoleOption = { value: InviteRole; label: string };

/**
 * portal.md section 6, invite roles: an advisory firm invites administrators and standard users; other
 * businesses also an advisor (who gets administrator access). The accounting-admin invitation is for
 * an internal administrator or, outside a firm, an accountant at an outside firm.
 */
export const inviteRoleOptions = (input: { isFirm: boolean; workflow: InviteWorkflow }): RoleOption[] => {
  if (input.workflow === 'ACCOUNTING_ADMIN')
    return input.isFirm
      ? [{ value: 'ADMIN', label: 'Internal administrator' }]
      : [
          { value: 'ADMIN', label: 'Internal administrator' },
          { value: 'ADVISOR', label: 'Accountant at an outside firm' },
        ];
  return input.isFirm
    ? [
        { value: 'ADMIN', label: 'Administrator' },
        { value: 'USER', label: 'Standard User' },
      ]
    : [
        { value: 'ADMIN', label: 'Administrator' },
        { value: 'ADVISOR', label: 'Advisor (administrator access)' },
        { value: 'USER', label: 'Standard User' },
      ];
};

/** portal.md section 2.3, job function options (blank first). */
export const jobFunctions = [
  'Accounting/Finance',
  'Bookkeeper',
  'Business Owner',
  'Consultant',
  'Customer Support',
  'Executive',
  'Marketing',
  'Sales',
  'Other',
] as const;

/** portal.md section 5: an accounting admin is invited as ADMIN with this job title unless chosen otherwise. */
export const accountingAdminDefaults = { role: 'ADMIN', jobTitle: 'Accounting/Finance' } as const;
