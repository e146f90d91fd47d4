/**
 * handleCommand found a stream empty whose events had all expired (it keeps its revision), and the command was not
 * allowed to start it over: what expired still counts, so the caller decides what that means (a nonce: still used).
 */
export class StreamHistoryExpiredError extends Error {
  override readonly name = 'StreamHistoryExpiredError';
  constructor(
    readonly streamId: string,
    /** The revision the stream kept. */
    readonly revision: number,
  ) {
    super(`stream ${streamId}: its events expired at revision ${revision}; refusing to start it over`);
  }
}
