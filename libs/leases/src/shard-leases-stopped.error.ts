/** `start` on ShardLeases after `stop`: a stopped instance has left its group; create a new one to rejoin. */
export class ShardLeasesStoppedError extends Error {
  override readonly name = 'ShardLeasesStoppedError';
  constructor(readonly group: string) {
    super(`ShardLeases of group ${group} was stopped`);
  }
}
