/** The client given to an observation is connected to another chain than the one observed: a caller's bug. */
export class WrongChainClientError extends Error {
  override readonly name = 'WrongChainClientError' as const;

  constructor(
    readonly expectedChainId: number,
    readonly clientChainId: number,
  ) {
    super(`expected a client for chain ${expectedChainId}, got one for chain ${clientChainId}`);
  }
}
