import { count, days, longDate, money, periodLabel, share } from './pdf-format';
import { safeFileName } from './render-seller-report';

describe('report formats', () => {
  it('prints cents in the tenant currency', () => {
    expect(money(123_456_789, 'USD')).toBe('$1,234,567.89');
    expect(money(-5_050, 'GBP')).toBe('-£50.50');
    expect(money(99, 'EUR')).toBe('€0.99');
  });

  it('prints days, shares, counts and periods', () => {
    expect(days(45.67)).toBe('45.7 days');
    expect(days(null)).toBe('n/a');
    expect(share(0.256)).toBe('25.6%');
    expect(count(55_000)).toBe('55,000');
    expect(longDate('2024-05-27')).toBe('27 May 2024');
    expect(periodLabel({ start: '2024-05-27', end: '2024-06-02' }, 'weekly')).toBe('27 May - 2 Jun 2024');
    expect(periodLabel({ start: '2024-05-01', end: '2024-05-31' }, 'monthly')).toBe('May 2024');
  });

  it('makes file names safe for a Content-Disposition header', () => {
    expect(safeFileName('Café "Noël" / Ltd\r\n')).toBe('Cafe Noel Ltd');
    expect(safeFileName('北京')).toBe('Report');
  });
});
