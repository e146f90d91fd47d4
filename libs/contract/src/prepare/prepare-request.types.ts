/** spec: PrepareRequest.walletContext, validated. */
export interface WalletContext {
  connectorName?: string;
  connectorId?: string;
  /** Opaque: the wallet capabilities result exactly as sent; `{}` yields sequential sendTransaction actions. */
  walletCapabilities?: Record<string, unknown>;
}

/** A validated prepare request. The body is optional, so an empty object is the common case. */
export interface PrepareRequest {
  callbackUrl?: string;
  walletContext?: WalletContext;
}
