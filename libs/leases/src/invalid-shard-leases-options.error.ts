/** ShardLeases was configured with an unusable value: a programming or deployment error, raised at construction. */
export class InvalidShardLeasesOptionsError extends Error {
  override readonly name = 'InvalidShardLeasesOptionsError';
  constructor(
    readonly option: string,
    reason: string,
  ) {
    super(`ShardLeases option ${option} ${reason}`);
  }
}
