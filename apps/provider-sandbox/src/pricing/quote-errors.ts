/**
 * Why the quote engine refuses a route. Each dialect maps these to its own error body, so the engine never
 * knows about HTTP or vendor error codes.
 */
export class SameChainRouteError extends Error {
  override readonly name = 'SameChainRouteError';
  constructor(readonly chainId: number) {
    super(`origin and destination are both chain ${chainId}; the sandbox only bridges across chains`);
  }
}

export class UnknownTokenError extends Error {
  override readonly name = 'UnknownTokenError';
  constructor(
    readonly chainId: number,
    readonly address: string,
  ) {
    super(`no token ${address} on chain ${chainId}`);
  }
}

export class AmountTooLowError extends Error {
  override readonly name = 'AmountTooLowError';
  constructor(
    readonly amountIn: bigint,
    readonly feesIn: bigint,
  ) {
    super(`amount ${amountIn} is too low to cover fees ${feesIn}`);
  }
}

export class QuoteParamError extends Error {
  override readonly name = 'QuoteParamError';
  constructor(
    readonly param: 'amountIn' | 'slippageBps' | 'appFeeBps',
    message: string,
  ) {
    super(message);
  }
}

/** A chain id the sandbox does not run. */
export class UnsupportedChainError extends Error {
  override readonly name = 'UnsupportedChainError';
  constructor(
    readonly field: string,
    readonly chain: number | string,
  ) {
    super(`${field}: chain ${chain} is not a sandbox chain`);
  }
}

/** A route closed by the `routeUnavailableTokens` fault. */
export class RouteUnavailableError extends Error {
  override readonly name = 'RouteUnavailableError';
  constructor(readonly tokens: readonly string[]) {
    super(`no route for ${tokens.join(' -> ')}`);
  }
}
