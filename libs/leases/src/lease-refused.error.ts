export type LeaseRefusalReason =
  /** Another owner holds the lease and it has not expired. */
  'held_by_other';

/**
 * The lease decider refused a command. Losing a shard to a live holder is the normal case when several instances
 * compete: ShardLeases takes it as "not mine", never as a failure.
 */
export class LeaseRefusedError extends Error {
  override readonly name = 'LeaseRefusedError';
  constructor(
    readonly reason: LeaseRefusalReason,
    readonly holder: string,
    readonly until: number,
  ) {
    super(`lease held by ${holder} until ${new Date(until).toISOString()}`);
  }
}
