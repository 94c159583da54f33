/**
 * The shape of every aggregate in domain/: pure functions, no I/O, no clock (time arrives in the command).
 * `decide` returns the events a command causes or throws an AppError (contracts/errors.ts) whose
 * userMessage is the spec's text; `evolve` folds one event into the state.
 */
export type Decider<State, Command, Event> = {
  decide: (command: Command, state: State) => Event[];
  evolve: (state: State, event: Event) => State;
  initialState: () => State;
};

/** A domain event as the deciders see it: a past-tense type and its payload. */
export type DomainEvent<Type extends string = string, Data = unknown> = { type: Type; data: Data };

/** A command as the deciders see it: an imperative type, its payload and the facts the decider may not fetch. */
export type DomainCommand<Type extends string = string, Data = unknown> = {
  type: Type;
  data: Data;
  /** When the command was issued; deciders never read the clock. */
  now: Date;
};

/** Folds a history into a state: what a command handler does after reading a stream. */
export const foldEvents = <State, Event>(
  decider: Pick<Decider<State, unknown, Event>, 'evolve' | 'initialState'>,
  events: readonly Event[],
): State => events.reduce(decider.evolve, decider.initialState());
