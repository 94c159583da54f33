import type { EventStore } from '../../commands/event-store/event-store';
import { tenantSubject } from '../../commands/personal-data';
import { ProjectionProcessor } from '../../projections/framework/projection-processor';
import { invitesProjection } from '../../projections/invites/invites-projection';
import { queryInvite, queryPendingInvites } from '../../projections/invites/query-invites';
import {
  inviteStreamOf,
  platformAdmin,
  portalCommands,
  self,
  testInvitationTokenHash,
  type PortalCommands,
} from './portal-commands';
import { useProjectionTestSetup } from './projection-test-setup';
import { replayTwice } from './replay-twice';

const { context, openStore } = useProjectionTestSetup(__filename);

let store: EventStore;
let commands: PortalCommands;

const catchUp = () =>
  new ProjectionProcessor({
    db: context.db,
    store,
    decode: context.decode,
    projection: invitesProjection,
  }).catchUp();

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** A day after the commands' clock (2026-01-05): every invitation here is still within its 7 days. */
const now = new Date('2026-01-06T09:00:00.000Z');
const pending = async (tenantId: number, at = now) =>
  (await queryPendingInvites(context.db, { tenantId, now: at })).invites.map((i) => [
    i.Uuid,
    i.Email,
    i.Role,
    i.status,
  ]);

beforeAll(async () => {
  store = openStore();
  commands = portalCommands(store, context.keys);
  const c = commands;
  await c.registerUser(10, { email: 'ann@acme.example', givenName: 'Ann', familyName: 'Archer' });
  await c.registerUser(30, { email: 'ria@example.com', givenName: 'Ria', familyName: 'Reed' });
  await c.createTenant(1, { name: 'Acme', classification: 'BUSINESS' }, 10);
  await c.createTenant(2, { name: 'Globex', classification: 'BUSINESS' }, null);
  await c.createTenant(3, { name: 'Initech', classification: 'BUSINESS' }, null);

  await c.invitePerson(uuid(1), { tenantId: 1, email: 'Pat@Example.com', name: 'Pat Park', role: 'USER' });
  await c.invite(inviteStreamOf(1, 'pat@example.com'), {
    type: 'MarkInviteSent',
    actor: platformAdmin,
    data: { inviteId: uuid(1) },
  });
  await c.invitePerson(uuid(2), {
    tenantId: 1,
    email: 'quinn@example.com',
    name: 'Quinn Quill',
    role: 'ADMIN',
  });
  await c.invite(inviteStreamOf(1, 'quinn@example.com'), {
    type: 'CancelInvite',
    actor: platformAdmin,
    data: { inviteId: uuid(2) },
  });
  await c.invitePerson(uuid(3), { tenantId: 1, email: 'ria@example.com', name: 'Ria Reed', role: 'ADVISOR' });
  await c.invite(inviteStreamOf(1, 'ria@example.com'), {
    type: 'AcceptInvite',
    actor: self(30),
    data: {
      inviteId: uuid(3),
      tokenHash: testInvitationTokenHash,
      userId: 30,
      userEmail: 'ria@example.com',
    },
  });
  // Invited again after the cancellation: the same stream, a new invitation.
  await c.invitePerson(uuid(4), {
    tenantId: 1,
    email: 'quinn@example.com',
    name: 'Quinn Quill',
    role: 'USER',
  });
  await c.invitePerson(uuid(5), { tenantId: 2, email: 'sam@example.com', name: 'Sam Stone', role: 'USER' });
  await c.invitePerson(uuid(6), { tenantId: 3, email: 'tom@example.com', name: 'Tom Toms', role: 'USER' });
  await catchUp();
});

describe('the pending invites read model', () => {
  it("lists a tenant's pending invitations, newest first; cancelled and accepted ones are gone", async () => {
    expect(await pending(1)).toEqual([
      [uuid(4), 'quinn@example.com', 'USER', 'pending'],
      [uuid(1), 'pat@example.com', 'USER', 'sent'],
    ]);
    const [latest] = (await queryPendingInvites(context.db, { tenantId: 1, now })).invites;
    expect(latest).toMatchObject({
      TenantId: 1,
      Name: 'Quinn Quill',
      SubscribeToReports: true,
      Workflow: 'STANDARD',
      createdAt: expect.stringMatching(/^2026-01-05T/) as string,
      expiresAt: expect.stringMatching(/^2026-01-12T/) as string,
      streamId: inviteStreamOf(1, 'quinn@example.com'),
    });
  });

  it('no longer lists an invitation 7 days after it was created', async () => {
    const weekLater = new Date('2026-01-12T09:30:00.000Z');
    expect(await pending(1, weekLater)).toEqual([]);
    expect(await pending(2, weekLater)).toEqual([]);
  });

  it('keeps no token or token hash of the invitations', async () => {
    const names = (await context.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    const documents = JSON.stringify(
      await Promise.all(names.map((name) => context.db.collection(name).find().toArray())),
    );
    expect(documents).toContain('pat@example.com');
    expect(documents).not.toContain(testInvitationTokenHash);
  });

  it("never lists another tenant's invitations", async () => {
    expect(await pending(2)).toEqual([[uuid(5), 'sam@example.com', 'USER', 'pending']]);
    expect(await pending(404)).toEqual([]);
  });

  it('finds the invitation behind a link by its id, whatever became of it', async () => {
    const status = async (n: number) => (await queryInvite(context.db, { inviteId: uuid(n) })).invite?.status;

    expect(await status(1)).toBe('sent');
    expect(await status(2)).toBe('cancelled');
    expect(await status(3)).toBe('joined');
    expect((await queryInvite(context.db, { inviteId: uuid(1) })).invite).toMatchObject({
      TenantId: 1,
      Email: 'pat@example.com',
      streamId: inviteStreamOf(1, 'pat@example.com'),
    });
    expect((await queryInvite(context.db, { inviteId: uuid(99) })).invite).toBeNull();
  });

  it("drops a permanently purged tenant's invitations, whose addresses are erased with its key", async () => {
    await commands.tenant(3, { type: 'DisableTenant', actor: platformAdmin, data: { reason: 'TESTING' } });
    const purged = await commands.tenant(3, {
      type: 'PurgeTenant',
      actor: platformAdmin,
      data: { permanent: true },
    });
    await context.keys.erase(tenantSubject(3));

    const before = await queryPendingInvites(context.db, {
      tenantId: 3,
      now,
      afterPosition: purged.position,
      waitTimeoutMs: 20,
    });
    expect(before).toMatchObject({ stale: true, invites: [{ Uuid: uuid(6) }] });
    await catchUp();
    expect(await pending(3)).toEqual([]);
    expect((await queryInvite(context.db, { inviteId: uuid(6) })).invite).toBeNull();
  });

  it('writes the same documents when every event is delivered twice and the history replayed', async () => {
    const { live, twice, replayed } = await replayTwice({ ...context, store }, invitesProjection);

    expect(live.invites?.count).toBe(5);
    expect(twice).toEqual(live);
    expect(replayed).toEqual(live);
  });
});
