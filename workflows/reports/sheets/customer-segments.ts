/**
 * The customer segment of the sheets' Segment column (customerSheet.showSegmentation): an ABC
 * classification on the trailing-12-month sales, the split every receivables and sales team knows.
 * Customers ranked by those sales, largest first (ties by customer id): a customer is A while the
 * sales ranked before it are under 80% of the total, B while under 95%, C after that; a customer
 * without sales in the 12 months is Inactive. docs/adr/0037-report-sheets-and-email.md.
 */
export type CustomerSegment = 'A' | 'B' | 'C' | 'Inactive';

export const segmentsOf = (
  customers: readonly { customerId: number; salesT12M: number }[],
): Map<number, CustomerSegment> => {
  const segments = new Map<number, CustomerSegment>();
  const buying = customers
    .filter((c) => c.salesT12M > 0)
    .sort((a, b) => b.salesT12M - a.salesT12M || a.customerId - b.customerId);
  const total = buying.reduce((sum, c) => sum + c.salesT12M, 0);
  let before = 0;
  for (const customer of buying) {
    const share = before / total;
    segments.set(customer.customerId, share < 0.8 ? 'A' : share < 0.95 ? 'B' : 'C');
    before += customer.salesT12M;
  }
  for (const customer of customers)
    if (!segments.has(customer.customerId)) segments.set(customer.customerId, 'Inactive');
  return segments;
};
