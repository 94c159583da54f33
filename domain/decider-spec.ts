import { AppError, type ErrorCode } from '../contracts/errors';
import { foldEvents, type Decider } from './decider';

/**
 * Given / when / then over a pure decider, for the tests beside each aggregate:
 *
 *   spec.given([tenantCreated]).when(renameTenant).then([tenantRenamed]);
 *   spec.given([]).when(renameTenant).thenFails('not_found', 'Tenant not found.');
 */
export const deciderSpec = <State, Command, Event>(decider: Decider<State, Command, Event>) => ({
  given: (history: readonly Event[]) => ({
    when: (command: Command) => {
      const run = () => decider.decide(command, foldEvents(decider, history));
      return {
        then: (expected: readonly Event[]) => {
          expect(run()).toEqual(expected);
        },
        thenFails: (code: ErrorCode, userMessage?: string | RegExp) => {
          let thrown: unknown;
          try {
            run();
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(AppError);
          const appError = thrown as AppError;
          expect(appError.code).toBe(code);
          if (userMessage !== undefined) expect(appError.userMessage).toMatch(userMessage);
          return appError;
        },
      };
    },
  }),
  /** The state after a history, for assertions on evolve. */
  stateAfter: (history: readonly Event[]): State => foldEvents(decider, history),
});
