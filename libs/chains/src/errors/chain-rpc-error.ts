import { BaseError, type Client } from 'viem';

/**
 * The node could not answer (unreachable, timed out, rate limited, internal error): a reason to retry, never
 * evidence about the chain's state. The message names the chain and the operation but not the RPC URL, which
 * may carry an API key; `cause` keeps viem's error.
 */
export class ChainRpcError extends Error {
  override readonly name = 'ChainRpcError' as const;
  readonly chainId: number | undefined;

  constructor(client: Client, operation: string, cause: unknown) {
    const chainId = client.chain?.id;
    const reason = cause instanceof BaseError ? cause.shortMessage : String(cause);
    super(`chain ${chainId ?? '?'}: ${operation} failed: ${reason}`, { cause });
    this.chainId = chainId;
  }
}
