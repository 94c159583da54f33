import { InviteRequest } from '../../../../contracts/auth';
import type { InviteRole, InviteWorkflow } from '../../../../contracts/events/invite';
import { validate, type FormErrors } from '../../forms/field-errors';
import { accountingAdminDefaults, inviteRoleOptions } from './role-options';

export type InviteValues = {
  role: InviteRole | '';
  name: string;
  email: string;
  jobTitle: string;
  subscribeToReports: boolean;
  classifyAsAdvisor: boolean;
};

export const roleRequired = 'Role is required';

export const emptyInvite = (workflow: InviteWorkflow): InviteValues => ({
  role: workflow === 'ACCOUNTING_ADMIN' ? accountingAdminDefaults.role : '',
  name: '',
  email: '',
  jobTitle: '',
  subscribeToReports: false,
  classifyAsAdvisor: false,
});

/**
 * The invite form's rules (portal.md section 5): role, name and a valid email required, job title
 * optional; the advisor box only in a firm; an accounting admin defaults to ADMIN and Accounting/Finance.
 */
export const checkInvite = (
  values: InviteValues,
  context: { isFirm: boolean; workflow: InviteWorkflow },
): { data: InviteRequest } | { errors: FormErrors } => {
  const accounting = context.workflow === 'ACCOUNTING_ADMIN';
  const allowed = inviteRoleOptions(context).map((option) => option.value);
  const role = values.role === '' && accounting ? accountingAdminDefaults.role : values.role;
  const checked = validate(InviteRequest, {
    name: values.name,
    email: values.email,
    role: role === '' ? null : role,
    jobTitle: accounting ? accountingAdminDefaults.jobTitle : values.jobTitle.trim() || null,
    subscribeToReports: values.subscribeToReports,
    classifyAsAdvisor: context.isFirm && values.classifyAsAdvisor,
    workflow: context.workflow,
  });
  const errors: FormErrors = 'errors' in checked ? { ...checked.errors } : {};
  if (role === '' || !allowed.includes(role)) errors.role = roleRequired;
  if ('errors' in checked || Object.keys(errors).length > 0) return { errors };
  return checked;
};
