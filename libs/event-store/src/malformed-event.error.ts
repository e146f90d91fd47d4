/**
 * A stored event of a type its decider knows does not have the shape that decider folds (`Decider.isEvent`), or
 * folding it gave no state: the stream it belongs to cannot be folded, so reads and commands of that stream (and of
 * no other) are refused with this until it is repaired. Carries where the event is, for the operator.
 */
export class MalformedEventError extends Error {
  override readonly name = 'MalformedEventError';
  constructor(
    readonly streamId: string,
    /** The event's revision in its stream. */
    readonly revision: number,
    readonly type: string,
    /** The decider that refused it (its `name`, or the stream id's prefix). */
    readonly decider: string,
  ) {
    super(
      `stream ${streamId}: event ${revision} (${type}) does not have the shape the ${decider} decider folds; ` +
        'the stream is refused until it is repaired',
    );
  }
}
