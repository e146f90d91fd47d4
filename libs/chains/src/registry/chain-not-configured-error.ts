export class ChainNotConfiguredError extends Error {
  override readonly name = 'ChainNotConfiguredError' as const;

  constructor(readonly chainId: number) {
    super(`chain ${chainId} is not configured (see CHAINS_FILE)`);
  }
}
