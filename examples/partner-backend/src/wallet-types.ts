/** The parts of a prepare answer the user's wallet needs (the full shape: docs/partners/flow.md). */
export interface PreparedAttempt {
  attemptId: string;
  expiresAt: string;
  chainActions: {
    chainId: number;
    /** Set when the action is plain transactions, sent in order with eth_sendTransaction. */
    transactions: { to: string; data: string; value: string }[] | null;
  }[];
  /** EIP-712 typed data, signed exactly as given (eth_signTypedData_v4). */
  walletAuthorization: {
    domain: Record<string, unknown>;
    types: Record<string, readonly { name: string; type: string }[]>;
    primaryType: string;
    message: Record<string, unknown>;
  };
}

/** What the wallet reports back: the hashes of what it sent, per chain, and the authorization's signature. */
export interface WalletResult {
  chainResults: { chainId: number; txHashes: string[] }[];
  signature: string;
}
