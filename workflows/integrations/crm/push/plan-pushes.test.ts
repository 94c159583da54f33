import { defaultCrmSettings, type CrmSettings } from '../../../../contracts/events/integration';
import type { CrmPushKind } from '../crm-connector';
import { appliedPushesOf, emptyAppliedPushes, type AppliedPushes } from './applied-pushes';
import { planPushes, TASKS_PER_SELLER, type PushPlanInput, type SellerPushFacts } from './plan-pushes';

const allKinds: CrmPushKind[] = [
  'segmentChange',
  'overdueInvoice',
  'collectionTask',
  'salesRep',
  'revopsProperties',
];
const asOf = new Date('2026-03-31T15:00:00.000Z');
const daysBefore = (days: number) => new Date(Date.UTC(2026, 2, 31) - days * 86_400_000);

const seller: SellerPushFacts = {
  sellerId: 7,
  pushSalesRep: true,
  customers: [
    {
      customerId: '101',
      companyCrmId: 'c-101',
      ownerCrmId: 'owner-1',
      name: 'Acme Ltd',
      risk: 'high',
      openBalance: 150_000,
      overdue: 120_000,
      dsoDays: 61.5,
      lastPayment: new Date('2026-02-10T00:00:00.000Z'),
      expectedCollections: 40_000,
      salesRep: 'Dana Rep',
    },
    {
      customerId: '102',
      companyCrmId: 'c-102',
      ownerCrmId: null,
      name: 'Globex',
      risk: 'low',
      openBalance: 10_000,
      overdue: 0,
      dsoDays: 12,
      lastPayment: null,
      expectedCollections: null,
      salesRep: null,
    },
  ],
  overdueInvoices: [
    // 95 days late: its stage is 90, one event only (not the stages it went through unseen).
    {
      providerId: 'inv-1',
      customerId: '101',
      docNumber: 'INV-1',
      dueDate: daysBefore(95),
      daysOverdue: 95,
      open: 100_000,
    },
    {
      providerId: 'inv-2',
      customerId: '101',
      docNumber: 'INV-2',
      dueDate: daysBefore(3),
      daysOverdue: 3,
      open: 20_000,
    },
    // Customer 999 is not linked to a CRM company: nothing about it is pushed.
    {
      providerId: 'inv-3',
      customerId: '999',
      docNumber: 'INV-3',
      dueDate: daysBefore(40),
      daysOverdue: 40,
      open: 5_000,
    },
  ],
};

const input = (
  overrides: Partial<Omit<PushPlanInput, 'settings'>> & { settings?: Partial<CrmSettings> } = {},
): PushPlanInput => ({
  integrationId: 17,
  revops: true,
  currency: 'USD',
  asOf,
  sellers: [seller],
  supports: new Set(allKinds),
  applied: emptyAppliedPushes(),
  ...overrides,
  settings: { ...defaultCrmSettings, ...overrides.settings },
});

const kindsOf = (plan: ReturnType<typeof planPushes>) => plan.pushes.map((p) => p.push.kind);

/** What the stream would hold after every push of `plan` was applied (a recorded IntegrationPushesApplied). */
const appliedAfter = (plan: ReturnType<typeof planPushes>): AppliedPushes =>
  appliedPushesOf([
    {
      type: 'IntegrationPushesApplied',
      data: {
        integrationId: 17,
        jobId: 1,
        pushes: plan.pushes.map((p, i) => ({
          key: p.push.key,
          kind: p.push.kind,
          objectType: 'event',
          crmId: `crm-${i}`,
          created: true,
          sellerId: p.sellerId,
          customerId: p.customerId,
        })),
        appliedAt: asOf.toISOString(),
      },
    },
  ]);

describe('planning CRM pushes', () => {
  it('plans exactly the pushes the facts call for, in a stable order', () => {
    const plan = planPushes(input());
    expect(plan.skipped).toBe(0);
    expect(plan.pushes.map((p) => [p.push.kind, p.push.key])).toEqual([
      ['segmentChange', 'lw:17:segment:7:101#none%3Ehigh%402026-03-31'],
      ['segmentChange', 'lw:17:segment:7:102#none%3Elow%402026-03-31'],
      ['overdueInvoice', 'lw:17:overdue:7:101:inv-1:d90'],
      ['overdueInvoice', 'lw:17:overdue:7:101:inv-2:d1'],
      ['collectionTask', 'lw:17:task:7:101:inv-1'],
      ['collectionTask', 'lw:17:task:7:101:inv-2'],
      ['salesRep', expect.stringMatching(/^lw:17:salesRep:7:101#[0-9a-f]{16}$/)],
      ['revopsProperties', expect.stringMatching(/^lw:17:revops:7:101#[0-9a-f]{16}$/)],
      ['revopsProperties', expect.stringMatching(/^lw:17:revops:7:102#[0-9a-f]{16}$/)],
    ]);
    const byKey = new Map(plan.pushes.map((p) => [p.push.key, p.push]));
    expect(byKey.get('lw:17:segment:7:101#none%3Ehigh%402026-03-31')).toEqual({
      kind: 'segmentChange',
      key: 'lw:17:segment:7:101#none%3Ehigh%402026-03-31',
      companyCrmId: 'c-101',
      customerName: 'Acme Ltd',
      from: null,
      to: 'High risk',
      changedAt: '2026-03-31T00:00:00.000Z',
    });
    expect(byKey.get('lw:17:overdue:7:101:inv-1:d90')).toEqual({
      kind: 'overdueInvoice',
      key: 'lw:17:overdue:7:101:inv-1:d90',
      companyCrmId: 'c-101',
      invoiceNumber: 'INV-1',
      dueDate: '2025-12-26',
      daysOverdue: 95,
      balance: { cents: 100_000, currency: 'USD' },
    });
    expect(byKey.get('lw:17:task:7:101:inv-1')).toEqual({
      kind: 'collectionTask',
      key: 'lw:17:task:7:101:inv-1',
      companyCrmId: 'c-101',
      subject: 'Collect invoice INV-1 from Acme Ltd',
      body: 'Invoice INV-1 was due on 2025-12-26 and is 95 days overdue with $1,000.00 open. Ledgerwise ranks it among the invoices to chase first.',
      dueAt: '2026-04-01T00:00:00.000Z',
      ownerCrmId: 'owner-1',
    });
    const revops = plan.pushes.find((p) => p.push.kind === 'revopsProperties')?.push;
    expect(revops).toMatchObject({
      companyCrmId: 'c-101',
      properties: {
        ledgerwise_open_receivables: 1500,
        ledgerwise_overdue_receivables: 1200,
        ledgerwise_dso_days: 61.5,
        ledgerwise_last_payment_date: '2026-02-10',
        ledgerwise_payment_segment: 'High risk',
        ledgerwise_expected_collections_30d: 400,
        ledgerwise_currency: 'USD',
      },
    });
  });

  it('plans nothing a second time once the stream records the first plan as applied', () => {
    const first = planPushes(input());
    const second = planPushes(input({ applied: appliedAfter(first) }));
    expect(second.pushes).toEqual([]);
    expect(second.skipped).toBe(first.pushes.length);
  });

  it('pushes a segment change, the next overdue stage and a changed property, and nothing else', () => {
    const applied = appliedAfter(planPushes(input()));
    const [acme, globex] = seller.customers;
    if (!acme || !globex) throw new Error('fixture');
    const later: SellerPushFacts = {
      ...seller,
      customers: [
        { ...acme, openBalance: 90_000 },
        { ...globex, risk: 'medium' },
      ],
      overdueInvoices: seller.overdueInvoices.map((invoice) =>
        invoice.providerId === 'inv-2' ? { ...invoice, daysOverdue: 31 } : invoice,
      ),
    };
    const plan = planPushes(input({ sellers: [later], asOf: new Date('2026-04-28T08:00:00.000Z'), applied }));
    expect(plan.pushes.map((p) => p.push.key)).toEqual([
      'lw:17:segment:7:102#low%3Emedium%402026-04-28',
      'lw:17:overdue:7:101:inv-2:d30',
      expect.stringMatching(/^lw:17:revops:7:101#/),
      expect.stringMatching(/^lw:17:revops:7:102#/),
    ]);
    expect(plan.pushes[0]?.push).toMatchObject({ from: 'Low risk', to: 'Medium risk' });
  });

  it('writes a property again when its value goes back to an earlier one', () => {
    const [acme] = seller.customers;
    if (!acme) throw new Error('fixture');
    const revopsOnly = (openBalance: number) =>
      input({
        sellers: [{ ...seller, customers: [{ ...acme, openBalance }], overdueInvoices: [] }],
        supports: new Set(['revopsProperties']),
      });
    const first = planPushes(revopsOnly(150_000));
    const second = planPushes({ ...revopsOnly(90_000), applied: appliedAfter(first) });
    const both = appliedPushesOf(
      [first, second].map((plan) => ({
        type: 'IntegrationPushesApplied' as const,
        data: {
          integrationId: 17,
          jobId: 1,
          pushes: plan.pushes.map((p) => ({
            key: p.push.key,
            kind: p.push.kind,
            objectType: 'property' as const,
            crmId: 'c-101/figures',
            created: false,
            sellerId: p.sellerId,
            customerId: p.customerId,
          })),
          appliedAt: asOf.toISOString(),
        },
      })),
    );
    expect(second.pushes).toHaveLength(1);
    const back = planPushes({ ...revopsOnly(150_000), applied: both });
    expect(back.pushes.map((p) => p.push.key)).toEqual(first.pushes.map((p) => p.push.key));
    expect(planPushes({ ...revopsOnly(90_000), applied: both }).pushes).toEqual([]);
  });

  it.each([
    ['DisableSegmentChangeEvents', 'segmentChange'],
    ['DisableOverdueInvoiceEvents', 'overdueInvoice'],
    ['DisableCreatingTasks', 'collectionTask'],
  ] as const)('%s removes every %s push and only those', (setting, kind) => {
    const all = kindsOf(planPushes(input()));
    const without = kindsOf(planPushes(input({ settings: { [setting]: true } })));
    expect(without).toEqual(all.filter((k) => k !== kind));
  });

  it('SkipSalesData sends no invoice balance and no money figure', () => {
    const plan = planPushes(input({ settings: { SkipSalesData: true } }));
    expect(kindsOf(plan)).not.toContain('overdueInvoice');
    const text = JSON.stringify(plan.pushes);
    expect(text).not.toMatch(/\$|1,000|cents|open_receivables|overdue_receivables|expected_collections/);
    const task = plan.pushes.find((p) => p.push.kind === 'collectionTask')?.push;
    expect(task).toMatchObject({
      body: 'Invoice INV-1 was due on 2025-12-26 and is 95 days overdue. Ledgerwise ranks it among the invoices to chase first.',
    });
    const revops = plan.pushes.find((p) => p.push.kind === 'revopsProperties')?.push;
    expect(revops).toMatchObject({
      properties: {
        ledgerwise_payment_segment: 'High risk',
        ledgerwise_dso_days: 61.5,
        ledgerwise_last_payment_date: '2026-02-10',
      },
    });
  });

  it('pushes the sales rep only under crm.PushSalesRep, and RevOps figures only for RevOps Pro', () => {
    expect(kindsOf(planPushes(input({ sellers: [{ ...seller, pushSalesRep: false }] })))).not.toContain(
      'salesRep',
    );
    expect(kindsOf(planPushes(input({ revops: false })))).not.toContain('revopsProperties');
  });

  it('sends no segment and no RevOps figures for a customer the metrics have not seen yet', () => {
    const [acme] = seller.customers;
    if (!acme) throw new Error('fixture');
    const fresh = { ...acme, risk: null, openBalance: 0, overdue: 0, dsoDays: null, lastPayment: null };
    const plan = planPushes(input({ sellers: [{ ...seller, customers: [fresh], overdueInvoices: [] }] }));
    expect(kindsOf(plan)).toEqual(['salesRep']);
  });

  it('plans only what the connector supports', () => {
    const plan = planPushes(input({ supports: new Set<CrmPushKind>(['collectionTask']) }));
    expect(new Set(kindsOf(plan))).toEqual(new Set(['collectionTask']));
  });

  it(`creates tasks for the ${TASKS_PER_SELLER} linked invoices the prioritized list ranks first`, () => {
    const many = Array.from({ length: TASKS_PER_SELLER + 5 }, (_, i) => ({
      providerId: `p-${String(i).padStart(2, '0')}`,
      customerId: '102',
      docNumber: `N-${i}`,
      dueDate: daysBefore(10 + i),
      daysOverdue: 10 + i,
      open: 1_000,
    }));
    const plan = planPushes(
      input({ sellers: [{ ...seller, overdueInvoices: many }], supports: new Set(['collectionTask']) }),
    );
    // Same amount: the longest overdue scores highest.
    expect(plan.pushes.map((p) => p.push.key)).toEqual(
      many
        .slice()
        .reverse()
        .slice(0, TASKS_PER_SELLER)
        .map((invoice) => `lw:17:task:7:102:${invoice.providerId}`),
    );
  });

  it('after a purge the same facts are pushed again', () => {
    const first = planPushes(input());
    const afterPurge = appliedPushesOf([
      {
        type: 'IntegrationPushesApplied',
        data: {
          integrationId: 17,
          jobId: 1,
          pushes: first.pushes.map((p, i) => ({
            key: p.push.key,
            kind: p.push.kind,
            objectType: 'event' as const,
            crmId: `crm-${i}`,
            created: true,
            sellerId: p.sellerId,
            customerId: p.customerId,
          })),
          appliedAt: asOf.toISOString(),
        },
      },
      {
        type: 'IntegrationObjectsPurged',
        data: {
          integrationId: 17,
          jobId: 2,
          objects: first.pushes.map((_, i) => ({ objectType: 'event' as const, crmId: `crm-${i}` })),
          purgedAt: asOf.toISOString(),
        },
      },
    ]);
    expect(planPushes(input({ applied: afterPurge })).pushes).toEqual(first.pushes);
  });
});
