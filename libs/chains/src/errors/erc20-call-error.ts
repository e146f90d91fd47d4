import {
  BaseError,
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  HttpRequestError,
  RpcError,
  RpcRequestError,
  SocketClosedError,
  TimeoutError,
  WebSocketRequestError,
  type Address,
  type Client,
} from 'viem';
import { ChainRpcError } from './chain-rpc-error';

/** The token answered, but not as an ERC-20 does: no code at the address, a revert, or undecodable data. */
export class Erc20CallError extends Error {
  override readonly name = 'Erc20CallError' as const;

  constructor(
    readonly token: Address,
    readonly functionName: string,
    readonly chainId: number | undefined,
    cause: unknown,
  ) {
    const reason = cause instanceof BaseError ? cause.shortMessage : String(cause);
    super(`chain ${chainId ?? '?'}: ${token}.${functionName}() is not a valid ERC-20 answer: ${reason}`, {
      cause,
    });
  }

  /** Sorts a failed ERC-20 read into a token fault (Erc20CallError) or a node fault (ChainRpcError). */
  static from(
    client: Client,
    token: Address,
    functionName: string,
    err: unknown,
  ): Erc20CallError | ChainRpcError {
    return isTokenFault(err)
      ? new Erc20CallError(token, functionName, client.chain?.id, err)
      : new ChainRpcError(client, `${functionName}() on ${token}`, err);
  }
}

function isTokenFault(err: unknown): boolean {
  if (!(err instanceof BaseError)) return false;
  if (
    err.walk((e) => e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError)
  ) {
    return true;
  }
  // The call went through and came back with bytes that do not decode as the ERC-20 return type.
  const transport = err.walk(
    (e) =>
      e instanceof HttpRequestError ||
      e instanceof TimeoutError ||
      e instanceof WebSocketRequestError ||
      e instanceof SocketClosedError ||
      e instanceof RpcRequestError ||
      e instanceof RpcError,
  );
  return err instanceof ContractFunctionExecutionError && !transport;
}
