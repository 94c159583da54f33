import type { PaymentHabit } from '../../contracts/ledger';
import { dayOfIso, monthOfDay } from './demo-dates';
import type { DemoProfile } from './demo-profile';
import { mixSeed, seededRandom, type SeededRandom } from './seeded-random';

/** A settlement of an invoice: a payment or a credit memo, on a day, for an amount in cents. */
export type DemoSettlement = { kind: 'payment' | 'credit'; index: number; day: number; amount: number };

export type DemoInvoice = {
  index: number;
  day: number;
  dueDay: number;
  lines: { productId: number; quantity: number; amount: number }[];
  amount: number;
  settlements: DemoSettlement[];
};

export type DemoCustomerHistory = {
  customerId: number;
  habit: PaymentHabit;
  joinDay: number;
  invoices: DemoInvoice[];
};

type Habit = {
  /** Days after the invoice until the (first) payment. */
  delay: (random: SeededRandom) => number;
  /** Invoices never paid: the overdue tail. */
  unpaid: number;
  /** Invoices paid in two or three instalments. */
  partial: number;
};

const habits: Record<PaymentHabit, Habit> = {
  prompt: { delay: (r) => r.int(0, 28), unpaid: 0.01, partial: 0.03 },
  slow: { delay: (r) => r.int(35, 110), unpaid: 0.05, partial: 0.2 },
  erratic: { delay: (r) => Math.round(r.exponential(45)), unpaid: 0.08, partial: 0.3 },
  seasonal: { delay: (r) => r.int(5, 45), unpaid: 0.02, partial: 0.05 },
};

const pickHabit = (random: SeededRandom): PaymentHabit => {
  const roll = random.next();
  return roll < 0.45 ? 'prompt' : roll < 0.7 ? 'slow' : roll < 0.85 ? 'erratic' : 'seasonal';
};

/** Company-wide seasonality: more sales before year end, fewer in late summer. */
const seasonalAmount = [0.9, 0.85, 1.0, 1.0, 1.05, 1.0, 0.9, 0.8, 1.0, 1.1, 1.2, 1.3];
/** Seasonal customers buy mostly in the last and first quarter: their gaps shrink there, grow elsewhere. */
const seasonalGap = [0.6, 0.8, 1.6, 2.0, 2.2, 2.2, 2.0, 1.6, 1.0, 0.6, 0.4, 0.4];

const CREDIT_RATE = 0.03;
const TERMS_DAYS = 30;

const drawLines = (random: SeededRandom, context: { prices: number[]; scale: number; month: number }) => {
  const count = random.chance(0.6) ? 1 : random.int(2, 3);
  return Array.from({ length: count }, () => {
    const productIndex = Math.min(
      context.prices.length - 1,
      Math.floor(random.next() ** 2 * context.prices.length),
    );
    const quantity = random.int(1, 5);
    const price = context.prices[productIndex] ?? 10_000;
    const amount = Math.max(
      100,
      Math.round(price * quantity * context.scale * (seasonalAmount[context.month] ?? 1)),
    );
    return { productId: productIndex + 1, quantity, amount };
  });
};

/** Payments (whole or in instalments), maybe a credit memo, or nothing for the overdue tail. */
const drawSettlements = (random: SeededRandom, invoice: { day: number; amount: number }, habit: Habit) => {
  const settlements: DemoSettlement[] = [];
  let remaining = invoice.amount;
  // Draw every choice up front so the sequence of draws is the same whatever is kept.
  const credit = random.chance(CREDIT_RATE);
  const creditShare = 0.1 + random.next() * 0.4;
  const creditDelay = random.int(3, 20);
  const unpaid = random.chance(habit.unpaid);
  const instalments = random.chance(habit.partial) ? random.int(2, 3) : 1;
  const firstDelay = habit.delay(random);
  const gaps = [random.int(10, 40), random.int(10, 40)];
  if (credit) {
    const amount = Math.round(remaining * creditShare);
    settlements.push({ kind: 'credit', index: 0, day: invoice.day + creditDelay, amount });
    remaining -= amount;
  }
  if (unpaid) {
    // An overdue tail may still see one partial payment before the customer stops paying.
    if (instalments > 1)
      settlements.push({
        kind: 'payment',
        index: 0,
        day: invoice.day + firstDelay,
        amount: Math.round(remaining / 3),
      });
    return settlements;
  }
  let day = invoice.day + firstDelay;
  for (let index = 0; index < instalments; index += 1) {
    const last = index === instalments - 1;
    const amount = last ? remaining : Math.round(remaining / (instalments - index));
    settlements.push({ kind: 'payment', index, day, amount });
    remaining -= amount;
    day += gaps[index] ?? 30;
  }
  return settlements;
};

/**
 * One customer's whole history up to `untilDay`, drawn from its own random stream: the draws for an
 * invoice never depend on the window asked for, so any window of the same company is consistent.
 */
export const demoCustomerHistory = (
  profile: DemoProfile,
  context: { customerId: number; customers: number; prices: number[]; untilDay: number },
): DemoCustomerHistory => {
  const random = seededRandom(mixSeed(profile.seed, context.customerId));
  const habitName = pickHabit(random);
  const habit = habits[habitName];
  const startDay = dayOfIso(profile.startDate);
  // Most customers are there from the start; the rest join over the first three years.
  const joinDay = startDay + (random.chance(0.6) ? random.int(0, 30) : random.int(30, 3 * 365));
  const churnDay = random.chance(0.15) ? joinDay + random.int(120, 4 * 365) : Number.POSITIVE_INFINITY;
  const meanGap = ((365 * context.customers) / profile.invoicesPerYear) * (0.5 + random.next());
  const scale = Math.exp(random.normal() * 0.5);

  const invoices: DemoInvoice[] = [];
  let day = joinDay;
  while (day <= context.untilDay && day < churnDay) {
    const month = monthOfDay(day);
    const lines = drawLines(random, { prices: context.prices, scale, month });
    const amount = lines.reduce((sum, line) => sum + line.amount, 0);
    const settlements = drawSettlements(random, { day, amount }, habit);
    invoices.push({ index: invoices.length + 1, day, dueDay: day + TERMS_DAYS, lines, amount, settlements });
    const gapFactor = habitName === 'seasonal' ? (seasonalGap[month] ?? 1) : 1;
    day += Math.max(1, Math.round(random.exponential(meanGap * gapFactor)));
  }
  return { customerId: context.customerId, habit: habitName, joinDay, invoices };
};
