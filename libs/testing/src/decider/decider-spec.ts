/**
 * given / when / then for deciders (after emmett's DeciderSpecification): state is only ever built by
 * folding events, so tests say which events happened, which command arrives, and what is decided. The argument
 * order is the Decider's own (`decide(command, state)`, `@svc/contract`), so a decider is passed as it is.
 */
export interface DeciderUnderTest<State, Event, Command, Decision> {
  initialState: State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Decision;
}

export function deciderSpec<S, E, C, D>(decider: DeciderUnderTest<S, E, C, D>) {
  return {
    given(events: E[]) {
      const state = events.reduce((s, e) => decider.evolve(s, e), decider.initialState);
      return {
        when(command: C) {
          const run = () => decider.decide(command, state);
          return {
            then(expected: D): void {
              expect(run()).toEqual(expected);
            },
            thenThrows(matcher?: string | RegExp | (new (...args: never[]) => Error)): void {
              expect(run).toThrow(matcher);
            },
          };
        },
      };
    },
  };
}
