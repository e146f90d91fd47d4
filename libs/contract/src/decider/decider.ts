/**
 * The shape of every stream's rules (emmett's `Decider`): where the stream starts, how one of its events moves it on,
 * and which events a command appends (none when it changes nothing; a refusal throws). Pure: time, ids and
 * randomness arrive in the command. It lives here because the domain, which implements it, and the event store's
 * command seam, which runs it, may import only this library in common.
 */
export interface Decider<State, Command, Event> {
  initialState: State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}
