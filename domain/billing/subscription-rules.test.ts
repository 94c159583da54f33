import {
  countingProducts,
  hasPaymentMethod,
  isAfterToday,
  isTrialEndEditable,
  needsQuickstartSupport,
  trialDaysRemaining,
} from './subscription-rules';

const now = new Date('2025-03-10T12:00:00.000Z');

describe('trial days remaining', () => {
  it('is 0 unless the subscription is trialing', () => {
    expect(trialDaysRemaining({ paymentStatus: 'active', startedAt: '2025-03-20T12:00:00.000Z' }, now)).toBe(
      0,
    );
  });

  it('counts whole days until StartedAt while trialing', () => {
    expect(
      trialDaysRemaining({ paymentStatus: 'trialing', startedAt: '2025-03-20T12:00:00.000Z' }, now),
    ).toBe(10);
    expect(
      trialDaysRemaining({ paymentStatus: 'trialing', startedAt: '2025-03-20T11:59:00.000Z' }, now),
    ).toBe(9);
  });

  it('never goes below 0 once StartedAt has passed', () => {
    expect(
      trialDaysRemaining({ paymentStatus: 'trialing', startedAt: '2025-03-01T00:00:00.000Z' }, now),
    ).toBe(0);
  });
});

describe('trial end editing', () => {
  it('is allowed while trialing or while the start is ahead', () => {
    expect(
      isTrialEndEditable({ paymentStatus: 'trialing', startedAt: '2025-03-01T00:00:00.000Z' }, now),
    ).toBe(true);
    expect(isTrialEndEditable({ paymentStatus: 'active', startedAt: '2025-03-11T00:00:00.000Z' }, now)).toBe(
      true,
    );
    expect(isTrialEndEditable({ paymentStatus: 'active', startedAt: '2025-03-01T00:00:00.000Z' }, now)).toBe(
      false,
    );
  });
});

describe('dates after today', () => {
  it('excludes today and accepts tomorrow at midnight', () => {
    expect(isAfterToday(new Date('2025-03-10T23:59:59.000Z'), now)).toBe(false);
    expect(isAfterToday(new Date('2025-03-11T00:00:00.000Z'), now)).toBe(true);
  });
});

describe('products that count', () => {
  it('keeps active products that have not expired, comparing expiry with today at midnight', () => {
    const products = [
      { identifier: 'open', active: true, expiresAt: null },
      { identifier: 'inactive', active: false, expiresAt: null },
      { identifier: 'expired-yesterday', active: true, expiresAt: '2025-03-09T23:59:59.000Z' },
      { identifier: 'expires-today-midnight', active: true, expiresAt: '2025-03-10T00:00:00.000Z' },
      { identifier: 'expires-next-month', active: true, expiresAt: '2025-04-10T00:00:00.000Z' },
    ];
    expect(countingProducts(products, now).map((p) => p.identifier)).toEqual([
      'open',
      'expires-today-midnight',
      'expires-next-month',
    ]);
  });
});

describe('quickstart contact-support prompt', () => {
  it('appears once used reaches purchased minus one', () => {
    expect(needsQuickstartSupport({ used: 3, purchased: 5 })).toBe(false);
    expect(needsQuickstartSupport({ used: 4, purchased: 5 })).toBe(true);
    expect(needsQuickstartSupport({ used: 5, purchased: 5 })).toBe(true);
  });
});

describe('payment method provided', () => {
  it('counts manual, send_invoice and card only', () => {
    expect(['manual', 'send_invoice', 'card'].every((m) => hasPaymentMethod(m as 'card'))).toBe(true);
    expect(hasPaymentMethod('charge_automatically')).toBe(false);
    expect(hasPaymentMethod(null)).toBe(false);
  });
});
