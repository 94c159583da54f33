import {
  chooseRecipients,
  sentThisPeriod,
  skipReasons,
  type RecipientRow,
  type RecipientRules,
} from './recipient-choice';

const row = (id: number, overrides: Partial<RecipientRow> = {}): RecipientRow => ({
  Id: id,
  STATE: 'ACTIVE',
  SendWeekly: true,
  SendMonthly: false,
  TrackWelcomeDate: null,
  TrackWeeklyDate: null,
  TrackMonthlyDate: null,
  SubscriberId: 100 + id,
  Subscriber: { Email: `person${id}@example.test` },
  ...overrides,
});

const now = new Date('2026-03-10T07:00:00Z');
const rules = (overrides: Partial<RecipientRules> = {}): RecipientRules => ({
  pdf: 'weekly',
  selection: { kind: 'subscribed' },
  noOverride: false,
  now,
  timeZone: 'UTC',
  adminEmails: ['admin@ledgerwise.local'],
  isDemoRecipient: (email) => email.endsWith('.example'),
  ...overrides,
});

describe('chooseRecipients', () => {
  it('sends a weekly report to the active subscriptions that take weekly reports', () => {
    const rows = [
      row(1),
      row(2, { SendWeekly: false, SendMonthly: true }),
      row(3, { STATE: 'INACTIVE' }),
      row(4, { STATE: 'ADMIN' }),
      row(5, { STATE: 'DEACTIVATED' }),
    ];
    expect(chooseRecipients(rows, rules())).toEqual({ recipientIds: [1, 4], skipped: [] });
    expect(chooseRecipients(rows, rules({ pdf: 'monthly' }))).toEqual({ recipientIds: [2], skipped: [] });
  });

  it('never sends to a demo address and says why', () => {
    const rows = [row(1), row(2, { Subscriber: { Email: 'billing@acme.example' } })];
    expect(chooseRecipients(rows, rules())).toEqual({
      recipientIds: [1],
      skipped: [{ recipientId: 2, reason: skipReasons.demo }],
    });
  });

  it('sends chosen recipients whatever their frequency flags, and reports the ones that cannot receive it', () => {
    const rows = [
      row(1, { SendWeekly: false }),
      row(2, { STATE: 'INACTIVE' }),
      row(3, { Subscriber: { Email: null } }),
    ];
    const chosen = chooseRecipients(
      rows,
      rules({ selection: { kind: 'recipients', recipientIds: [1, 2, 3, 9, 1] } }),
    );
    expect(chosen.recipientIds).toEqual([1]);
    expect(chosen.skipped).toEqual([
      { recipientId: 9, reason: skipReasons.unknown },
      { recipientId: 2, reason: skipReasons.inactive },
      { recipientId: 3, reason: skipReasons.noEmail },
    ]);
  });

  it('with admin, sends only to platform admins: ADMIN subscriptions and the admins by email', () => {
    const rows = [
      row(1),
      row(2, { STATE: 'ADMIN' }),
      row(3, { Subscriber: { Email: 'Admin@Ledgerwise.local' } }),
    ];
    expect(chooseRecipients(rows, rules({ selection: { kind: 'admins' } })).recipientIds).toEqual([2, 3]);
  });

  it('chooses subscribers by user id', () => {
    const rows = [row(1), row(2), row(3, { SubscriberId: null })];
    expect(
      chooseRecipients(rows, rules({ selection: { kind: 'subscribers', userIds: [102] } })).recipientIds,
    ).toEqual([2]);
  });

  it('sends the welcome report only to subscriptions that never had one', () => {
    const rows = [row(1), row(2, { TrackWelcomeDate: '2026-01-01T00:00:00.000Z', SendWeekly: false })];
    expect(chooseRecipients(rows, rules({ pdf: 'welcome' })).recipientIds).toEqual([1]);
  });

  it('with noOverride, skips whoever already got this frequency this period', () => {
    const rows = [
      row(1, { TrackWeeklyDate: '2026-03-09T07:00:00.000Z' }),
      row(2, { TrackWeeklyDate: '2026-03-03T07:00:00.000Z' }),
      row(3),
    ];
    expect(chooseRecipients(rows, rules({ noOverride: true }))).toEqual({
      recipientIds: [2, 3],
      skipped: [{ recipientId: 1, reason: skipReasons.alreadyThisPeriod }],
    });
    expect(chooseRecipients(rows, rules({ noOverride: false })).recipientIds).toEqual([1, 2, 3]);
  });

  it('sends nothing for onlyArchive', () => {
    expect(chooseRecipients([row(1)], rules({ selection: { kind: 'nobody' } }))).toEqual({
      recipientIds: [],
      skipped: [],
    });
  });
});

describe('sentThisPeriod', () => {
  it('counts a monthly send in the same calendar month of the tenant zone', () => {
    const march1Tokyo = row(1, { TrackMonthlyDate: '2026-02-28T16:00:00.000Z' }); // 1 March 01:00 in Tokyo
    const at = { pdf: 'monthly' as const, now };
    expect(sentThisPeriod(march1Tokyo, { ...at, timeZone: 'Asia/Tokyo' })).toBe(true);
    expect(sentThisPeriod(march1Tokyo, { ...at, timeZone: 'UTC' })).toBe(false);
  });
});
