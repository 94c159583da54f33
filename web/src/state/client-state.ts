import { createStore } from 'jotai';

type JotaiStore = ReturnType<typeof createStore>;

/**
 * Client choices (jotai atoms) live in one store per signed-in tenant: replacing the store on logout
 * or a tenant switch resets every atom at once, without each atom having to know about sessions.
 */
export class ClientState {
  private current: JotaiStore = createStore();
  private readonly listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly store = (): JotaiStore => this.current;

  reset(): void {
    this.current = createStore();
    for (const listener of this.listeners) listener();
  }
}
