/**
 * The shape of every stream's rules (emmett's `Decider`): where the stream starts, how one of its events moves it on,
 * and which events a command appends (none when it changes nothing; a refusal throws). Pure: time, ids and
 * randomness arrive in the command. It lives here because the domain, which implements it, and the event store's
 * command seam, which runs it, may import only this library in common.
 *
 * The optional fields tell the command seam (aggregateStream, handleCommand) which stored events `evolve` may be
 * handed: a decider without them has every stored event folded, as before they existed.
 */
export interface Decider<State, Command, Event> {
  initialState: State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
  /** Names the stream kind in logs and counts ('attempt'); absent, the stream id up to its first '-'. */
  name?: string;
  /**
   * Every event type `evolve` knows. A stored event of another type (appended by a newer build during a rolling
   * deploy) is skipped before `evolve`: it is counted and logged once per decider and type, and the stream folds as
   * if it were not there.
   */
  knownEventTypes?: ReadonlySet<string>;
  /**
   * Whether a stored event of a known type has the shape `evolve` reads: its data a plain object with the fields
   * `evolve` dereferences. A stored event that fails it refuses the fold of its stream (MalformedEventError), never
   * any other stream's, and never folds into a state that is not one.
   */
  isEvent?(event: UncheckedEvent): event is UncheckedEvent & Event;
}

/** A stored event as the command seam hands it to `isEvent`: its type, and data of any shape. */
export interface UncheckedEvent {
  type: string;
  data: unknown;
}
