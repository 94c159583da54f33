/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeFetch, type RecordedCall } from '../../test-support/fake-fetch';
import { fieldErrorOf } from '../../test-support/field-error';
import { renderApp } from '../../test-support/render-app';
import { noSellers, sessionFixture, tenantRow } from '../../test-support/session-fixture';
import { teamMember, userWithTenants } from './team-fixtures';

const ada = teamMember({ Id: 3, Name: 'Ada Lovelace', Membership: { Role: 'ADMIN', JobTitle: 'Executive' } });
const bob = teamMember({ Id: 4, Name: 'Bob Babbage', Membership: { SendWeekly: true } });

const apiFor = (input: { role: 'ADMIN' | 'USER'; firm?: boolean; platformAdmin?: boolean }) => {
  const session = sessionFixture({
    tenants: [tenantRow({ Role: input.role, ...(input.firm ? { Classification: 'FIRM' } : {}) })],
    user: { isPlatformAdmin: input.platformAdmin ?? false },
  });
  return new FakeFetch()
    .on('GET /api/auth/self', { body: session })
    .on('GET /api/auth/token', { body: { csrfToken: 'csrf-1' } })
    .on('GET /api/sellers', { body: noSellers })
    .on('GET /api/users', (call: RecordedCall) =>
      call.url.includes('pending=1')
        ? {
            body: {
              invites: [
                {
                  Uuid: '0d7f5c1e-8a8b-4a62-9f39-5d5f3e8a1c11',
                  Email: 'cy@example.com',
                  Name: 'Cy Invitee',
                  Role: 'USER',
                  JobTitle: null,
                  Workflow: 'STANDARD',
                  status: 'sent',
                  createdAt: '2030-01-02T00:00:00.000Z',
                  lastSentAt: null,
                },
              ],
            },
          }
        : { body: { members: [bob, ada] } },
    );
};

// Whole-app renders with a modal and a form on the way: seconds on a loaded machine, not a timing assertion.
jest.setTimeout(30_000);

const rowOf = (name: string) => screen.getByText(name).closest('tr')!;

describe('Team page', () => {
  it('shows a tenant admin the pending invites and the team by name, with role names', async () => {
    const fake = apiFor({ role: 'ADMIN' });
    renderApp({ path: '/users', fake });
    expect(await screen.findByText('cy@example.com')).toBeInTheDocument();
    await screen.findByText('Ada Lovelace');
    expect(within(rowOf('Ada Lovelace')).getByText('Administrator')).toBeInTheDocument();
    expect(within(rowOf('Bob Babbage')).getByText('Standard User')).toBeInTheDocument();
    const team = screen.getByRole('table', { name: 'Team' });
    const names = within(team)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[0]?.textContent);
    expect(names).toEqual(['Ada Lovelaceada@example.com', 'Bob Babbagebob@example.com']);
  });

  it('cancels an invitation', async () => {
    const fake = apiFor({ role: 'ADMIN' }).on(
      'DELETE /api/auth/invite/0d7f5c1e-8a8b-4a62-9f39-5d5f3e8a1c11',
      {
        body: { ok: true },
      },
    );
    renderApp({ path: '/users', fake });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Cancel the invitation of cy@example.com' }),
    );
    await waitFor(() =>
      expect(fake.callsTo('DELETE /api/auth/invite/0d7f5c1e-8a8b-4a62-9f39-5d5f3e8a1c11')).toHaveLength(1),
    );
  });

  it('lets a standard user toggle only their own report emails, and never asks for invites', async () => {
    const fake = apiFor({ role: 'USER' }).on('PUT /api/users/3', { body: userWithTenants(ada) });
    renderApp({ path: '/users', fake });
    await screen.findByText('Ada Lovelace');
    expect(screen.queryByRole('button', { name: 'Invite user' })).not.toBeInTheDocument();
    expect(fake.calls.some((call) => call.url.includes('pending=1'))).toBe(false);
    const bobWeekly = screen.getByRole('switch', { name: 'Send weekly reports to Bob Babbage' });
    expect(bobWeekly.hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('switch', { name: 'Access for Bob Babbage' }).hasAttribute('disabled')).toBe(
      true,
    );

    await userEvent.click(screen.getByRole('switch', { name: 'Send monthly reports to Ada Lovelace' }));
    await waitFor(() => expect(fake.callsTo('PUT /api/users/3')[0]?.body).toEqual({ SendMonthly: true }));
  });

  it('says which toggle failed', async () => {
    const fake = apiFor({ role: 'ADMIN' }).on('PUT /api/users/4', { status: 500, body: { message: 'boom' } });
    renderApp({ path: '/users', fake });
    await userEvent.click(await screen.findByRole('switch', { name: 'Send weekly reports to Bob Babbage' }));
    expect(
      await screen.findByText(
        'Error Toggling SendWeekly to false. Error toggling field: Please try again or contact support.',
      ),
    ).toBeInTheDocument();
  });

  it('disables a member with their reports (ToggleReports)', async () => {
    const fake = apiFor({ role: 'ADMIN' }).on('PUT /api/users/4/status', {
      body: teamMember({ Id: 4, Name: 'Bob Babbage', Membership: { Status: 'INACTIVE' } }),
    });
    renderApp({ path: '/users', fake });
    await userEvent.click(await screen.findByRole('switch', { name: 'Access for Bob Babbage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable access' });
    expect(within(dialog).getByLabelText<HTMLInputElement>('Also stop their report emails').checked).toBe(
      true,
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disable access' }));
    await waitFor(() =>
      expect(fake.callsTo('PUT /api/users/4/status')[0]?.body).toEqual({
        Status: 'INACTIVE',
        ToggleReports: true,
      }),
    );
  });

  it('says why a change of access failed, and a refused choice against its box', async () => {
    const fake = apiFor({ role: 'ADMIN' }).on('PUT /api/users/4/status', {
      status: 422,
      body: {
        message: 'The reports of this member cannot be changed.',
        code: 'validation',
        properties: { 'body.ToggleReports': 'invalid' },
      },
    });
    renderApp({ path: '/users', fake });
    await userEvent.click(await screen.findByRole('switch', { name: 'Access for Bob Babbage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable access' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disable access' }));
    await within(dialog).findByText('This value is not valid.');
    expect(fieldErrorOf('Also stop their report emails', dialog)).toBe('This value is not valid.');
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'The reports of this member cannot be changed.',
    );
  });

  it('invites with the business roles, checking the fields first', async () => {
    const fake = apiFor({ role: 'ADMIN' }).on('POST /api/auth/invite', {
      body: {
        Uuid: '5b0c2f7e-3d1a-4f5e-9a6b-7c8d9e0f1a2b',
        Email: 'dee@example.com',
        Name: 'Dee',
        status: 'sent',
      },
    });
    renderApp({ path: '/users', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Invite user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite user' });
    const roles = within(dialog)
      .getAllByRole('option')
      .filter((option) => option.closest('select')?.name === 'role')
      .map((option) => option.textContent);
    expect(roles).toEqual([
      'Choose a role',
      'Administrator',
      'Advisor (administrator access)',
      'Standard User',
    ]);
    expect(within(dialog).queryByLabelText('Classify as advisor')).not.toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await within(dialog).findByText('Role is required');
    expect(fieldErrorOf('Role', dialog)).toBe('Role is required');
    expect(fieldErrorOf('Name', dialog)).toBe('Name is required');
    expect(fieldErrorOf('Email', dialog)).toBe('Email is required');
    expect(fake.callsTo('POST /api/auth/invite')).toHaveLength(0);

    await userEvent.selectOptions(within(dialog).getByLabelText('Role'), 'ADVISOR');
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Dee');
    await userEvent.type(within(dialog).getByLabelText('Email'), 'dee@example.com');
    await userEvent.selectOptions(within(dialog).getByLabelText('Job function'), 'Bookkeeper');
    await userEvent.click(within(dialog).getByLabelText('Subscribe to reports'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));

    expect(await screen.findByText('Invitation sent to dee@example.com.')).toBeInTheDocument();
    expect(fake.callsTo('POST /api/auth/invite')[0]?.body).toEqual({
      name: 'Dee',
      email: 'dee@example.com',
      role: 'ADVISOR',
      jobTitle: 'Bookkeeper',
      subscribeToReports: true,
      classifyAsAdvisor: false,
      workflow: 'STANDARD',
    });
  });

  it('shows the server refusing the email against the Email field, and says it above the form', async () => {
    const fake = apiFor({ role: 'ADMIN' }).on('POST /api/auth/invite', {
      status: 422,
      body: { message: 'Validation failed', code: 'validation', properties: { 'body.email': 'not_unique' } },
    });
    renderApp({ path: '/users', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Invite user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite user' });
    await userEvent.selectOptions(within(dialog).getByLabelText('Role'), 'USER');
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Dee');
    await userEvent.type(within(dialog).getByLabelText('Email'), 'ada@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));

    await within(dialog).findByText('The email is already in use.');
    expect(fieldErrorOf('Email', dialog)).toBe('The email is already in use.');
    expect(within(dialog).getByRole('alert').textContent).toBe('Validation failed');
    // The modal stays open with what was typed, for the person to correct.
    expect(within(dialog).getByLabelText<HTMLInputElement>('Name').value).toBe('Dee');
  });

  it('invites an accountant without asking role or job function in a firm', async () => {
    const fake = apiFor({ role: 'ADMIN', firm: true }).on('POST /api/auth/invite', {
      body: {
        Uuid: '5b0c2f7e-3d1a-4f5e-9a6b-7c8d9e0f1a2b',
        Email: 'cal@books.example',
        Name: 'Cal',
        status: 'sent',
      },
    });
    renderApp({ path: '/users', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Invite your accountant' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite your accountant' });
    expect(within(dialog).queryByLabelText('Job function')).not.toBeInTheDocument();
    expect(within(dialog).queryByLabelText(/Role|Who are you inviting/)).not.toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Cal');
    await userEvent.type(within(dialog).getByLabelText('Email'), 'cal@books.example');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() =>
      expect(fake.callsTo('POST /api/auth/invite')[0]?.body).toMatchObject({
        role: 'ADMIN',
        jobTitle: 'Accounting/Finance',
        workflow: 'ACCOUNTING_ADMIN',
      }),
    );
  });

  it('edits a member: a tenant admin sends the job title and role, not the account fields', async () => {
    const fake = apiFor({ role: 'ADMIN' }).on('PUT /api/users/4', { body: userWithTenants(bob) });
    renderApp({ path: '/users', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Bob Babbage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit user' });
    expect(within(dialog).queryByLabelText('Email')).not.toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Assign to all clients')).not.toBeInTheDocument();
    await userEvent.selectOptions(within(dialog).getByLabelText('Role'), 'ADMIN');
    await userEvent.selectOptions(within(dialog).getByLabelText('Job function'), 'Sales');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Successfully updated the user.')).toBeInTheDocument();
    expect(fake.callsTo('PUT /api/users/4')[0]?.body).toEqual({ JobTitle: 'Sales', Role: 'ADMIN' });
  });

  it('shows the advisor assignment box only for a firm advisor who is an administrator', async () => {
    const advisor = teamMember({
      Id: 5,
      Name: 'Eve Advisor',
      PrimaryClassification: 'ADVISOR',
      Membership: { Role: 'ADMIN' },
    });
    const fake = apiFor({ role: 'ADMIN', firm: true })
      .on('GET /api/users', { body: { members: [ada, advisor] } })
      .on('PUT /api/users/5', { status: 500, body: { message: 'boom' } });
    renderApp({ path: '/users', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Eve Advisor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit user' });
    await userEvent.click(within(dialog).getByLabelText('Assign to all clients'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('There was an error while updating the user.'),
    ).toBeInTheDocument();
    expect(fake.callsTo('PUT /api/users/5')[0]?.body).toEqual({
      JobTitle: null,
      Role: 'ADMIN',
      AssignToAllClients: true,
    });
  });

  it('lets a platform admin edit the account fields too', async () => {
    const fake = apiFor({ role: 'USER', platformAdmin: true }).on('PUT /api/users/4', {
      body: userWithTenants(bob),
    });
    renderApp({ path: '/users', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Bob Babbage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit user' });
    await userEvent.clear(within(dialog).getByLabelText('Name'));
    await userEvent.clear(within(dialog).getByLabelText('Email'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await within(dialog).findByText('Name is required');
    expect(fieldErrorOf('Name', dialog)).toBe('Name is required');
    expect(fieldErrorOf('Email', dialog)).toBe('Email is required');
    await userEvent.type(within(dialog).getByLabelText('Email'), 'bob@example.com');
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Robert Babbage');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(fake.callsTo('PUT /api/users/4')[0]?.body).toEqual({
        JobTitle: null,
        Name: 'Robert Babbage',
        Email: 'bob@example.com',
        PrimaryClassification: 'MEMBER',
        ActiveCampaignId: null,
        Role: 'USER',
      }),
    );
    expect(await within(dialog).findByText('Successfully updated the user.')).toBeInTheDocument();
  });

  it('shows the server refusing an email against the Email field of the edit form', async () => {
    const fake = apiFor({ role: 'USER', platformAdmin: true }).on('PUT /api/users/4', {
      status: 422,
      body: { message: 'Validation failed', code: 'validation', properties: { 'body.Email': 'not_unique' } },
    });
    renderApp({ path: '/users', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Bob Babbage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit user' });
    await userEvent.clear(within(dialog).getByLabelText('Email'));
    await userEvent.type(within(dialog).getByLabelText('Email'), 'ada@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await within(dialog).findByText('The email is already in use.');
    expect(fieldErrorOf('Email', dialog)).toBe('The email is already in use.');
    expect(within(dialog).getByRole('alert').textContent).toBe('There was an error while updating the user.');
    expect(within(dialog).getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(false);
  });

  it('lets an advisor leave a company once they tick the confirmation, then opens the overview', async () => {
    const advisorAda = teamMember({
      Id: 3,
      Name: 'Ada Lovelace',
      Membership: { Role: 'ADMIN', Classification: 'ADVISOR' },
    });
    const owner = teamMember({ Id: 4, Name: 'Bob Babbage', Membership: { Role: 'ADMIN' } });
    const left = sessionFixture({ tenants: [tenantRow({ Id: 8, Name: 'Other Co' })] });
    const fake = apiFor({ role: 'ADMIN' })
      .on('GET /api/auth/self', {
        body: sessionFixture({
          tenants: [tenantRow({ Role: 'ADMIN', MembershipClassification: 'ADVISOR' })],
        }),
      })
      .on('GET /api/users', { body: { members: [advisorAda, owner] } })
      .on('POST /api/auth/leaveTenant', { body: left });
    const app = renderApp({ path: '/users', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Leave company' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave company' });
    const leave = within(dialog).getByRole('button', { name: 'Leave company' });
    expect(leave.hasAttribute('disabled')).toBe(true);
    await userEvent.click(
      within(dialog).getByLabelText('I understand that I will lose access to manage this company.'),
    );
    await userEvent.click(leave);
    await waitFor(() => expect(app.location()).toBe('/overview'));
    expect(fake.callsTo('POST /api/auth/leaveTenant')[0]?.body).toEqual({ tenantId: 7, confirmed: true });
  });

  it('shows the server refusing the confirmation against its box, and stays on the page', async () => {
    const advisorAda = teamMember({
      Id: 3,
      Name: 'Ada Lovelace',
      Membership: { Role: 'ADMIN', Classification: 'ADVISOR' },
    });
    const owner = teamMember({ Id: 4, Name: 'Bob Babbage', Membership: { Role: 'ADMIN' } });
    const refused = 'Please confirm that you understand you will lose access.';
    const fake = apiFor({ role: 'ADMIN' })
      .on('GET /api/auth/self', {
        body: sessionFixture({
          tenants: [tenantRow({ Role: 'ADMIN', MembershipClassification: 'ADVISOR' })],
        }),
      })
      .on('GET /api/users', { body: { members: [advisorAda, owner] } })
      .on('POST /api/auth/leaveTenant', {
        status: 422,
        body: { message: 'Validation failed', code: 'validation', properties: { 'body.confirmed': refused } },
      });
    const app = renderApp({ path: '/users', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Leave company' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave company' });
    await userEvent.click(
      within(dialog).getByLabelText('I understand that I will lose access to manage this company.'),
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Leave company' }));
    await within(dialog).findByText(refused);
    expect(fieldErrorOf('I understand that I will lose access to manage this company.', dialog)).toBe(
      refused,
    );
    expect(within(dialog).getByRole('alert').textContent).toBe('Validation failed');
    expect(app.location()).toBe('/users');
  });

  it('refuses leaving when no other active advisor or administrator remains', async () => {
    const advisorAda = teamMember({ Id: 3, Name: 'Ada Lovelace', Membership: { Classification: 'ADVISOR' } });
    const fake = apiFor({ role: 'USER' })
      .on('GET /api/auth/self', {
        body: sessionFixture({ tenants: [tenantRow({ MembershipClassification: 'ADVISOR' })] }),
      })
      .on('GET /api/users', { body: { members: [advisorAda, bob] } });
    renderApp({ path: '/users', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Leave company' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave company' });
    expect(
      within(dialog).getByText('Another active advisor or administrator must remain in the company.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Leave company' }).hasAttribute('disabled')).toBe(true);
  });

  it('edits a user on /users/{userId} and goes to the redirect address', async () => {
    const fake = apiFor({ role: 'ADMIN' })
      .on('GET /api/users/4', { body: userWithTenants(bob) })
      .on('PUT /api/users/4', { body: userWithTenants(bob) });
    const app = renderApp({ path: '/users/4?redirect=%2Fplatforms', fake });
    await userEvent.selectOptions(await screen.findByLabelText('Job function'), 'Marketing');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Successfully updated the user.')).toBeInTheDocument();
    await waitFor(() => expect(app.location()).toBe('/platforms'), { timeout: 3000 });
    expect(fake.callsTo('PUT /api/users/4')[0]?.body).toEqual({ JobTitle: 'Marketing', Role: 'USER' });
  });
});
