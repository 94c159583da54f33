import { ledgerIdOf } from './ledger-ids';
import { decimalToCents, homeCents, minorUnitsToCents } from './money';

describe('platform amounts into cents', () => {
  it('reads decimals as text, rounding half a cent away from zero', () => {
    expect(decimalToCents(108.25)).toBe(10825);
    expect(decimalToCents('1.005')).toBe(101);
    expect(decimalToCents(0.1 + 0.2)).toBe(30);
    expect(decimalToCents('-12.345')).toBe(-1235);
    expect(decimalToCents(7)).toBe(700);
    expect(() => decimalToCents('12,50')).toThrow('not an amount');
  });

  it('converts at the platform’s rate and scales minor units', () => {
    expect(homeCents(100, 1.25)).toBe(12500);
    expect(homeCents('19.99', undefined)).toBe(1999);
    expect(() => homeCents(1, 0)).toThrow('not an exchange rate');
    expect(minorUnitsToCents(1234, 'usd')).toBe(1234);
    expect(minorUnitsToCents(500, 'JPY')).toBe(50000);
    expect(minorUnitsToCents(1235, 'kwd')).toBe(124);
  });
});

describe('ledger ids of platform ids', () => {
  it('keeps numeric ids and hashes others stably above them', () => {
    expect(ledgerIdOf('58')).toBe(58);
    const guid = ledgerIdOf('9f4b7d2a-1c3e-4b5f-a6d7-e8f9a0b1c2d3');
    expect(guid).toBe(ledgerIdOf('9f4b7d2a-1c3e-4b5f-a6d7-e8f9a0b1c2d3'));
    expect(guid).toBeGreaterThan(1e15);
    expect(Number.isSafeInteger(guid)).toBe(true);
    expect(ledgerIdOf('cus_A')).not.toBe(ledgerIdOf('cus_B'));
  });
});
