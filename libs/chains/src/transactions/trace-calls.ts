import {
  BaseError,
  MethodNotFoundRpcError,
  MethodNotSupportedRpcError,
  type Address,
  type Chain,
  type Client,
  type Hash,
  type Hex,
  type Transport,
} from 'viem';
import { ChainRpcError } from '../errors/chain-rpc-error';

/** One frame of geth's callTracer output (anvil, reth and geth share the shape). */
export interface CallFrame {
  type: string;
  from: Address;
  to?: Address;
  value?: Hex;
  error?: string;
  calls?: CallFrame[];
}

type DebugSchema = [
  { Method: 'debug_traceTransaction'; Parameters: [Hash, { tracer: 'callTracer' }]; ReturnType: CallFrame },
];

/**
 * The call tree of a mined transaction from `debug_traceTransaction` with the callTracer; null when the node does
 * not serve it (public RPC endpoints usually do not). Throws ChainRpcError on any other failure.
 */
export async function traceCalls(client: Client, { hash }: { hash: Hash }): Promise<CallFrame | null> {
  try {
    return await (client as Client<Transport, Chain | undefined, undefined, DebugSchema>).request({
      method: 'debug_traceTransaction',
      params: [hash, { tracer: 'callTracer' }],
    });
  } catch (err) {
    if (isUnsupported(err)) return null;
    throw new ChainRpcError(client, `debug_traceTransaction(${hash})`, err);
  }
}

function isUnsupported(err: unknown): boolean {
  if (!(err instanceof BaseError)) return false;
  const unsupported = err.walk(
    (e) => e instanceof MethodNotFoundRpcError || e instanceof MethodNotSupportedRpcError,
  );
  // Some providers answer a disabled namespace with a generic error instead of -32601.
  return (
    !!unsupported || /method .*(not (found|supported|available)|does not exist)/i.test(err.details ?? '')
  );
}
