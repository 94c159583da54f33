import { segmentsOf } from './customer-segments';

describe('customer segments', () => {
  it('are A while the sales ranked before are under 80%, B under 95%, then C; Inactive without sales', () => {
    const segments = segmentsOf([
      { customerId: 1, salesT12M: 5000 },
      { customerId: 2, salesT12M: 3000 },
      { customerId: 3, salesT12M: 1000 },
      { customerId: 4, salesT12M: 600 },
      { customerId: 5, salesT12M: 400 },
      { customerId: 6, salesT12M: 0 },
    ]);
    // Before each, in rank order: 0%, 50%, 80%, 90%, 96% of 10,000.
    expect([1, 2, 3, 4, 5, 6].map((id) => segments.get(id))).toEqual(['A', 'A', 'B', 'B', 'C', 'Inactive']);
  });

  it('ranks ties by customer id, so a sheet is the same every time', () => {
    const segments = segmentsOf([
      { customerId: 1, salesT12M: 70 },
      { customerId: 9, salesT12M: 15 },
      { customerId: 3, salesT12M: 15 },
    ]);
    // Customer 3 ranks before 9: 70% of the sales come before it, 85% before 9.
    expect([segments.get(3), segments.get(9)]).toEqual(['A', 'B']);
  });
});
