/**
 * One ledger feed line as the sync writes it (docs/kafka-topics.md), an invoice of seller `sellerId` at
 * epoch 3, for the analytics consumer's unit tests; `fields` replaces any top-level field.
 */
export const feedLine = (
  sellerId: number,
  providerId: string,
  fields: Record<string, unknown> = {},
): string =>
  JSON.stringify({
    schemaVersion: 1,
    recordId: `invoices:${sellerId}:${providerId}:3:h`,
    entity: 'invoices',
    sellerId,
    tenantId: 1000 + sellerId,
    providerId,
    epoch: 3,
    changedAt: '2026-11-20T10:00:00.000Z',
    record: {
      customerId: 7,
      transactionDate: '2024-02-29T00:00:00.000Z',
      dueDate: '2024-03-30T00:00:00.000Z',
      amount: 1200,
      balance: 200,
      memo: 'Fee – café ☕',
    },
    ...fields,
  });
