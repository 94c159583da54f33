import { InviteEvent } from '../../contracts/events/invite';
import type { Actor } from '../actor';
import { deciderSpec } from '../decider-spec';
import type { InviteCommand } from './decide';
import { inviteDecider } from './invite-decider';

const spec = deciderSpec(inviteDecider);
const now = new Date('2025-03-04T10:00:00.000Z');
const at = now.toISOString();
const firstId = '0b7e4c1e-6f3a-4d2b-9a55-1c2d3e4f5a6b';
const tokenHash = 'hash-of-the-emailed-token-aaaaaaaaaaaaaaaaa';
const weekLater = new Date(now.getTime() + 7 * 24 * 3_600_000);
const secondId = '5f0c2a9d-8e7b-4c6a-b1d2-3e4f5a6b7c8d';

const actor = (overrides: Partial<Actor>): Actor => ({
  userId: 7,
  isPlatformAdmin: false,
  tenantRole: null,
  isAdvisor: false,
  ...overrides,
});
const tenantAdmin = actor({ tenantRole: 'ADMIN' });
const tenantUser = actor({ tenantRole: 'USER' });
const platformAdmin = actor({ userId: 1, isPlatformAdmin: true });
const system: Actor = { userId: null, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };
const invitee = actor({ userId: 20 });

type CommandOf<T extends InviteCommand['type']> = Extract<InviteCommand, { type: T }>;
const command = <T extends InviteCommand['type']>(
  type: T,
  data: CommandOf<T>['data'],
  by: Actor = tenantAdmin,
): InviteCommand => ({ type, data, now, actor: by }) as CommandOf<T>;

const invite = (overrides: Partial<CommandOf<'CreateInvite'>['data']> = {}, by: Actor = tenantAdmin) =>
  command(
    'CreateInvite',
    {
      inviteId: firstId,
      tenantId: 42,
      email: ' Bob@Example.com',
      name: ' Bob Smith ',
      role: 'USER',
      jobTitle: 'Sales',
      subscribeToReports: true,
      classifyAsAdvisor: false,
      workflow: 'STANDARD',
      tenantClassification: 'BUSINESS',
      tokenHash,
      ...overrides,
    },
    by,
  );

type CreatedData = Extract<InviteEvent, { type: 'InviteCreated' }>['data'];
const created = (overrides: Partial<CreatedData> = {}): InviteEvent => ({
  type: 'InviteCreated',
  data: {
    InviteId: firstId,
    TenantId: 42,
    Email: 'bob@example.com',
    Name: 'Bob Smith',
    Role: 'USER',
    JobTitle: 'Sales',
    SubscribeToReports: true,
    ClassifyAsAdvisor: false,
    Workflow: 'STANDARD',
    CreatedAt: at,
    TokenHash: tokenHash,
    ExpiresAt: weekLater.toISOString(),
    ...overrides,
  },
});
const sent: InviteEvent = { type: 'InviteSent', data: { InviteId: firstId, SentAt: at } };
const cancelled: InviteEvent = { type: 'InviteCancelled', data: { InviteId: firstId, CancelledAt: at } };
const accept = (inviteId = firstId, userEmail = 'BOB@example.com', by: Actor = invitee) =>
  command('AcceptInvite', { inviteId, tokenHash, userId: 20, userEmail }, by);
/** The same acceptance at another time or with another token's hash. */
const acceptWith = (change: { at?: Date; tokenHash?: string }): InviteCommand => ({
  ...(accept() as CommandOf<'AcceptInvite'>),
  now: change.at ?? now,
  data: {
    inviteId: firstId,
    tokenHash: change.tokenHash ?? tokenHash,
    userId: 20,
    userEmail: 'bob@example.com',
  },
});
const joinedAs = (
  overrides: Partial<Extract<InviteEvent, { type: 'InviteJoined' }>['data']> = {},
): InviteEvent => ({
  type: 'InviteJoined',
  data: {
    InviteId: firstId,
    UserId: 20,
    TenantId: 42,
    MembershipRole: 'USER',
    MembershipClassification: 'MEMBER',
    JobTitle: 'Sales',
    SendWeekly: true,
    SendMonthly: false,
    JoinedAt: at,
    ...overrides,
  },
});

describe('CreateInvite', () => {
  it('creates a pending invitation with a normalised address', () => {
    spec.given([]).when(invite()).then([created()]);
    expect(spec.stateAfter([created()])).toMatchObject({ current: { status: 'pending' } });
  });

  it('refuses a second invitation while one is pending or sent', () => {
    const message = 'An invitation is already pending for this email.';
    spec
      .given([created()])
      .when(invite({ inviteId: secondId }))
      .thenFails('conflict', message);
    spec
      .given([created(), sent])
      .when(invite({ inviteId: secondId }))
      .thenFails('conflict', message);
  });

  it('invites again once the previous invitation expired, 7 days after it was created', () => {
    const reinvite = { ...invite({ inviteId: secondId }), now: weekLater };
    spec
      .given([created(), sent])
      .when(reinvite)
      .then([
        created({
          InviteId: secondId,
          CreatedAt: weekLater.toISOString(),
          ExpiresAt: new Date(weekLater.getTime() + 7 * 24 * 3_600_000).toISOString(),
        }),
      ]);
  });

  it('invites again once the previous invitation was cancelled or joined', () => {
    spec
      .given([created(), cancelled])
      .when(invite({ inviteId: secondId }))
      .then([created({ InviteId: secondId })]);
    spec
      .given([created(), joinedAs()])
      .when(invite({ inviteId: secondId }))
      .then([created({ InviteId: secondId })]);
  });

  it('refuses an invitation on a stream kept for another tenant or address', () => {
    spec
      .given([created()])
      .when(invite({ inviteId: secondId, email: 'carol@example.com' }))
      .thenFails('conflict', 'This invitation stream belongs to another tenant or email address.');
  });

  it('needs a tenant admin or a platform admin', () => {
    spec
      .given([])
      .when(invite({}, tenantUser))
      .thenFails('forbidden', 'Only an administrator of this company can invite users.');
    spec.given([]).when(invite({}, platformAdmin)).then([created()]);
  });

  it('requires name, a valid email and a role', () => {
    const error = spec
      .given([])
      .when(invite({ name: ' ', email: '', role: null }))
      .thenFails('validation', 'Name is required\nEmail is required\nRole is required');
    expect(error.properties).toEqual({ name: 'required', email: 'required', role: 'required' });
    spec
      .given([])
      .when(invite({ email: 'bob@' }))
      .thenFails('validation', 'Please enter a valid email address.');
  });

  it('offers an advisory firm only ADMIN and USER', () => {
    const error = spec
      .given([])
      .when(invite({ role: 'ADVISOR', tenantClassification: 'FIRM' }))
      .thenFails('validation', 'An advisory firm can invite administrators and standard users only.');
    expect(error.properties).toEqual({ role: 'invalid' });
    spec
      .given([])
      .when(invite({ role: 'ADMIN', tenantClassification: 'FIRM' }))
      .then([created({ Role: 'ADMIN' })]);
  });

  it('lets a business invite an ADVISOR', () => {
    spec
      .given([])
      .when(invite({ role: 'ADVISOR' }))
      .then([created({ Role: 'ADVISOR' })]);
  });

  it('classifies an invited user as advisor only in a firm', () => {
    const error = spec
      .given([])
      .when(invite({ classifyAsAdvisor: true }))
      .thenFails('validation', 'Only an advisory firm can classify an invited user as an advisor.');
    expect(error.properties).toEqual({ classifyAsAdvisor: 'invalid' });
    spec
      .given([])
      .when(invite({ classifyAsAdvisor: true, tenantClassification: 'FIRM' }))
      .then([created({ ClassifyAsAdvisor: true })]);
  });

  it('defaults an accounting-admin invitation to ADMIN and Accounting/Finance', () => {
    spec
      .given([])
      .when(invite({ workflow: 'ACCOUNTING_ADMIN', role: null, jobTitle: null }))
      .then([created({ Workflow: 'ACCOUNTING_ADMIN', Role: 'ADMIN', JobTitle: 'Accounting/Finance' })]);
  });

  it('offers an accounting-admin invitation as ADMIN or ADVISOR only', () => {
    spec
      .given([])
      .when(invite({ workflow: 'ACCOUNTING_ADMIN', role: 'USER' }))
      .thenFails('validation', 'An accounting admin invitation is for an administrator or an advisor.');
    spec
      .given([])
      .when(invite({ workflow: 'ACCOUNTING_ADMIN', role: 'ADVISOR', jobTitle: 'Bookkeeper' }))
      .then([created({ Workflow: 'ACCOUNTING_ADMIN', Role: 'ADVISOR', JobTitle: 'Bookkeeper' })]);
  });
});

describe('MarkInviteSent', () => {
  it('records each send of an open invitation', () => {
    spec
      .given([created()])
      .when(command('MarkInviteSent', { inviteId: firstId }, system))
      .then([sent]);
    spec
      .given([created(), sent])
      .when(command('MarkInviteSent', { inviteId: firstId }, system))
      .then([sent]);
    expect(spec.stateAfter([created(), sent])).toMatchObject({ current: { status: 'sent' } });
  });

  it('refuses sending a finished invitation, an unknown one, or by a user', () => {
    spec
      .given([created(), cancelled])
      .when(command('MarkInviteSent', { inviteId: firstId }, system))
      .thenFails('conflict', 'This invitation has already been cancelled.');
    spec
      .given([created()])
      .when(command('MarkInviteSent', { inviteId: secondId }, system))
      .thenFails('not_found', 'Invitation not found.');
    spec
      .given([created()])
      .when(command('MarkInviteSent', { inviteId: firstId }, tenantAdmin))
      .thenFails('forbidden', 'Only the system records that an invitation was sent.');
  });
});

describe('CancelInvite', () => {
  it('cancels a pending or sent invitation', () => {
    spec
      .given([created()])
      .when(command('CancelInvite', { inviteId: firstId }))
      .then([cancelled]);
    spec
      .given([created(), sent])
      .when(command('CancelInvite', { inviteId: firstId }))
      .then([cancelled]);
  });

  it('refuses cancelling twice, after joining, an unknown id, or by a standard user', () => {
    spec
      .given([created(), cancelled])
      .when(command('CancelInvite', { inviteId: firstId }))
      .thenFails('conflict', 'This invitation has already been cancelled.');
    spec
      .given([created(), joinedAs()])
      .when(command('CancelInvite', { inviteId: firstId }))
      .thenFails('conflict', 'This invitation has already been accepted.');
    spec
      .given([])
      .when(command('CancelInvite', { inviteId: firstId }))
      .thenFails('not_found', 'Invitation not found.');
    spec
      .given([created()])
      .when(command('CancelInvite', { inviteId: firstId }, tenantUser))
      .thenFails('forbidden', 'Only an administrator of this company can invite users.');
  });
});

describe('AcceptInvite', () => {
  it('joins the invited user with the invited role and reports choice', () => {
    spec.given([created(), sent]).when(accept()).then([joinedAs()]);
    expect(spec.stateAfter([created(), joinedAs()])).toMatchObject({ current: { status: 'joined' } });
  });

  it('gives an invited ADVISOR administrator access, classified advisor', () => {
    spec
      .given([created({ Role: 'ADVISOR' })])
      .when(accept())
      .then([joinedAs({ MembershipRole: 'ADMIN', MembershipClassification: 'ADVISOR' })]);
  });

  it('classifies a firm member invited as advisor', () => {
    spec
      .given([created({ ClassifyAsAdvisor: true, SubscribeToReports: false })])
      .when(accept())
      .then([joinedAs({ MembershipClassification: 'ADVISOR', SendWeekly: false })]);
  });

  it('shows the invite page text for a cancelled, used, superseded or unknown link', () => {
    const message = 'Oops! It seems that this invitation is no longer valid.';
    spec.given([created(), cancelled]).when(accept()).thenFails('conflict', message);
    spec.given([created(), joinedAs()]).when(accept()).thenFails('conflict', message);
    spec
      .given([created(), cancelled, created({ InviteId: secondId })])
      .when(accept(firstId))
      .thenFails('conflict', message);
    spec.given([]).when(accept()).thenFails('conflict', message);
  });

  it('accepts only with the token of the emailed link, until it expires', () => {
    const message = 'Oops! It seems that this invitation is no longer valid.';
    spec
      .given([created(), sent])
      .when(acceptWith({ tokenHash: 'hash-of-some-other-token-bbbbbbbbbbbbbbbbbbb' }))
      .thenFails('conflict', message);
    spec
      .given([created(), sent])
      .when(acceptWith({ tokenHash: tokenHash.slice(0, 20) }))
      .thenFails('conflict', message);
    spec
      .given([created(), sent])
      .when(acceptWith({ at: new Date(weekLater.getTime() - 1) }))
      .then([joinedAs({ JoinedAt: new Date(weekLater.getTime() - 1).toISOString() })]);
    spec
      .given([created(), sent])
      .when(acceptWith({ at: weekLater }))
      .thenFails('conflict', message);
  });

  it('never accepts an invitation recorded before links carried a token', () => {
    spec
      .given([created({ TokenHash: null })])
      .when(accept())
      .thenFails('conflict', 'Oops! It seems that this invitation is no longer valid.');
  });

  it('lets only the invited address accept', () => {
    const message = 'This invitation was sent to a different email address.';
    spec.given([created()]).when(accept(firstId, 'mallory@example.com')).thenFails('forbidden', message);
    spec
      .given([created()])
      .when(accept(firstId, 'bob@example.com', actor({ userId: 21 })))
      .thenFails('forbidden', message);
  });
});

describe('event schemas', () => {
  it('accept what the decider emits', () => {
    const emitted = [
      ...inviteDecider.decide(invite(), spec.stateAfter([])),
      ...inviteDecider.decide(
        command('MarkInviteSent', { inviteId: firstId }, system),
        spec.stateAfter([created()]),
      ),
      ...inviteDecider.decide(command('CancelInvite', { inviteId: firstId }), spec.stateAfter([created()])),
      ...inviteDecider.decide(accept(), spec.stateAfter([created()])),
    ];
    expect(emitted.map((e) => e.type)).toEqual([
      'InviteCreated',
      'InviteSent',
      'InviteCancelled',
      'InviteJoined',
    ]);
    for (const event of emitted) expect(InviteEvent.parse(event)).toEqual(event);
  });
});
