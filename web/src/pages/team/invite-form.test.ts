import { validate } from '../../forms/field-errors';
import { emptyInvite, inviteForm, roleRequired, type InviteValues } from './invite-form';
import { inviteRoleOptions, jobFunctions } from './role-options';

/** The form's verdict as its fields show it: the request, or the first error of each field. */
const checkInvite = (values: InviteValues, context: Parameters<typeof inviteForm>[0]) =>
  validate(inviteForm(context), values);

const labels = (input: Parameters<typeof inviteRoleOptions>[0]) =>
  inviteRoleOptions(input).map((option) => `${option.value}:${option.label}`);

describe('invite roles (portal.md section 6)', () => {
  it('offers a firm administrators and standard users, a business also an advisor', () => {
    expect(labels({ isFirm: true, workflow: 'STANDARD' })).toEqual([
      'ADMIN:Administrator',
      'USER:Standard User',
    ]);
    expect(labels({ isFirm: false, workflow: 'STANDARD' })).toEqual([
      'ADMIN:Administrator',
      'ADVISOR:Advisor (administrator access)',
      'USER:Standard User',
    ]);
  });

  it('offers an accounting admin as an internal administrator or an outside accountant, never a standard user', () => {
    expect(labels({ isFirm: false, workflow: 'ACCOUNTING_ADMIN' })).toEqual([
      'ADMIN:Internal administrator',
      'ADVISOR:Accountant at an outside firm',
    ]);
    expect(labels({ isFirm: true, workflow: 'ACCOUNTING_ADMIN' })).toEqual(['ADMIN:Internal administrator']);
  });

  it('lists the job functions of the spec in order', () => {
    expect(jobFunctions).toEqual([
      'Accounting/Finance',
      'Bookkeeper',
      'Business Owner',
      'Consultant',
      'Customer Support',
      'Executive',
      'Marketing',
      'Sales',
      'Other',
    ]);
  });
});

describe('the invite form rules (portal.md section 5)', () => {
  const business = { isFirm: false, workflow: 'STANDARD' } as const;

  it('requires a role, a name and a valid email; the job title is optional', () => {
    expect(checkInvite(emptyInvite('STANDARD'), business)).toEqual({
      errors: { role: roleRequired, name: 'Name is required', email: 'Email is required' },
    });
    const invalid = checkInvite(
      { ...emptyInvite('STANDARD'), role: 'USER', name: 'Ada', email: 'ada@' },
      business,
    );
    expect(invalid).toEqual({ errors: { email: 'Email is invalid' } });
    const valid = checkInvite(
      { ...emptyInvite('STANDARD'), role: 'USER', name: ' Ada ', email: 'ada@example.com' },
      business,
    );
    expect(valid).toEqual({
      data: {
        name: 'Ada',
        email: 'ada@example.com',
        role: 'USER',
        jobTitle: null,
        subscribeToReports: false,
        classifyAsAdvisor: false,
        workflow: 'STANDARD',
      },
    });
  });

  it('refuses a role the company cannot offer (an advisor in a firm)', () => {
    const values = {
      ...emptyInvite('STANDARD'),
      role: 'ADVISOR' as const,
      name: 'Ada',
      email: 'ada@example.com',
    };
    expect(checkInvite(values, { isFirm: true, workflow: 'STANDARD' })).toEqual({
      errors: { role: roleRequired },
    });
  });

  it('classifies as advisor only in a firm', () => {
    const values = {
      ...emptyInvite('STANDARD'),
      role: 'ADMIN' as const,
      name: 'Ada',
      email: 'ada@example.com',
      classifyAsAdvisor: true,
    };
    const inBusiness = checkInvite(values, business);
    const inFirm = checkInvite(values, { isFirm: true, workflow: 'STANDARD' });
    expect('data' in inBusiness && inBusiness.data.classifyAsAdvisor).toBe(false);
    expect('data' in inFirm && inFirm.data.classifyAsAdvisor).toBe(true);
  });

  it('defaults an accounting admin to ADMIN with Accounting/Finance', () => {
    const checked = checkInvite(
      { ...emptyInvite('ACCOUNTING_ADMIN'), name: 'Cal Culator', email: 'cal@books.example' },
      { isFirm: false, workflow: 'ACCOUNTING_ADMIN' },
    );
    expect(checked).toMatchObject({
      data: { role: 'ADMIN', jobTitle: 'Accounting/Finance', workflow: 'ACCOUNTING_ADMIN' },
    });
  });
});
