import { z } from 'zod';
import { AppError } from '../../contracts/errors';
import type { Decider } from '../../domain/decider';
import { aggregateEvents, createEventRegistry } from '../event-registry';

/**
 * A tiny aggregate for the tests of commands/, so they do not depend on the real deciders: an
 * account that is opened for an owner (personal data), takes deposits and refuses overdrafts.
 */

export const AccountOpened = z.object({
  type: z.literal('AccountOpened'),
  data: z.object({
    accountId: z.int().positive(),
    /** Whose data it is: purging the tenant erases the owner's name. */
    tenantId: z.int().positive(),
    owner: z.string().min(1),
    openedAt: z.iso.datetime(),
  }),
});
export const Deposited = z.object({
  type: z.literal('Deposited'),
  data: z.object({ amount: z.int().positive() }),
});
export const Withdrawn = z.object({
  type: z.literal('Withdrawn'),
  data: z.object({ amount: z.int().positive() }),
});
export const AccountEvent = z.discriminatedUnion('type', [AccountOpened, Deposited, Withdrawn]);
export type AccountEvent = z.infer<typeof AccountEvent>;

export const accountEventVersions = { AccountOpened: 1, Deposited: 1, Withdrawn: 1 } as const;
export const accountPersonalDataFields = { AccountOpened: ['owner'], Deposited: [], Withdrawn: [] } as const;

export const accountRegistry = createEventRegistry([
  aggregateEvents(AccountEvent, accountEventVersions, accountPersonalDataFields),
]);

export type AccountCommand = { now: Date } & (
  | { type: 'OpenAccount'; data: { accountId: number; tenantId: number; owner: string } }
  /** Amounts are passed through unchecked, so a fraction reaches the event schema. */
  | { type: 'Deposit'; data: { amounts: number[] } }
  | { type: 'Withdraw'; data: { amount: number } }
);

export type AccountState = { opened: false } | { opened: true; owner: string; balance: number };

export const accountDecider: Decider<AccountState, AccountCommand, AccountEvent> = {
  initialState: () => ({ opened: false }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'AccountOpened':
        return { opened: true, owner: event.data.owner, balance: 0 };
      case 'Deposited':
        return state.opened ? { ...state, balance: state.balance + event.data.amount } : state;
      case 'Withdrawn':
        return state.opened ? { ...state, balance: state.balance - event.data.amount } : state;
    }
  },
  decide: (command, state) => {
    if (command.type === 'OpenAccount') {
      if (state.opened) throw new AppError('conflict', 'The account is already open.');
      return [{ type: 'AccountOpened', data: { ...command.data, openedAt: command.now.toISOString() } }];
    }
    if (!state.opened) throw new AppError('not_found', 'No such account.');
    if (command.type === 'Deposit')
      return command.data.amounts.map((amount) => ({ type: 'Deposited', data: { amount } }));
    if (command.data.amount > state.balance) throw new AppError('conflict', 'Insufficient funds.');
    return [{ type: 'Withdrawn', data: { amount: command.data.amount } }];
  },
};
