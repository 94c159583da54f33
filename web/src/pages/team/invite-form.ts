import { z } from 'zod';
import { InviteRequest } from '../../../../contracts/auth';
import type { InviteWorkflow } from '../../../../contracts/events/invite';
import { accountingAdminDefaults, inviteRoleOptions } from './role-options';

export const roleRequired = 'Role is required';

type InviteContext = { isFirm: boolean; workflow: InviteWorkflow };

/**
 * The invite form's rules (portal.md section 5) over the request's own: role, name and a valid email
 * required, job title optional; only the roles the company offers; the advisor box only in a firm; an
 * accounting admin defaults to ADMIN and Accounting/Finance. The output is the request to send.
 */
export const inviteForm = (context: InviteContext) => {
  const accounting = context.workflow === 'ACCOUNTING_ADMIN';
  const allowed = inviteRoleOptions(context).map((option) => option.value);
  return z
    .object({
      role: z
        .string()
        .transform((role) => (role === '' && accounting ? accountingAdminDefaults.role : role))
        .pipe(z.enum(allowed, { error: roleRequired })),
      name: InviteRequest.shape.name,
      email: InviteRequest.shape.email,
      jobTitle: z
        .string()
        .transform((jobTitle) => (accounting ? accountingAdminDefaults.jobTitle : jobTitle.trim() || null))
        .pipe(InviteRequest.shape.jobTitle.unwrap()),
      subscribeToReports: z.boolean(),
      classifyAsAdvisor: z.boolean().transform((classify) => context.isFirm && classify),
    })
    .transform((values): InviteRequest => ({ ...values, workflow: context.workflow }));
};

/** The fields as the form holds them: a role not chosen yet is blank. */
export type InviteValues = z.input<ReturnType<typeof inviteForm>>;

export const emptyInvite = (workflow: InviteWorkflow): InviteValues => ({
  role: workflow === 'ACCOUNTING_ADMIN' ? accountingAdminDefaults.role : '',
  name: '',
  email: '',
  jobTitle: '',
  subscribeToReports: false,
  classifyAsAdvisor: false,
});
