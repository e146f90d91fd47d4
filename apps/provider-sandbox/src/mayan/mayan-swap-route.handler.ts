import { encodeFunctionData, getAddress } from 'viem';
import { MayanSwapRouterArtifact } from '../contracts/artifacts';
import { RequestFieldError } from '../http/request-field-error';
import { queryObject, readAddress, readString, readUint } from '../http/request-fields';
import { jsonReply, type RouteHandler } from '../http/sandbox-http';
import { RouteUnavailableError, UnsupportedChainError } from '../pricing/quote-errors';
import { contractsOn, type SandboxContext } from '../sandbox-context';
import { isNative } from '../tokens/token-directory';
import { mayanChainByName } from './mayan-chains';

/**
 * `GET /get-swap/evm`: the router call the forwarder runs before a Swift order whose source token is not the Swift
 * input (swap-sdk v15.2.0 src/api.ts `getSwapEvm`, answered `{swapRouterAddress, swapRouterCalldata}`). The
 * sandbox serves the one such route its quotes name, wrap-and-lock: native ETH to the chain's WETH, through its
 * MayanSwapRouter. It reads the query the SDK sends (`forwarderAddress`, `chainName`, `fromToken`, `middleToken`,
 * `amountIn64`; `slippageBps`, `referrerAddress`, `apiKey` and `sdkVersion` are accepted and unused).
 */
export function mayanSwapRouteHandler(context: SandboxContext): RouteHandler {
  return (request) => {
    const source = queryObject(request.query);
    const chainName = readString(source, 'chainName');
    const chain = mayanChainByName(chainName);
    if (!chain || !context.clients.has(chain.chainId))
      throw new UnsupportedChainError('chainName', chainName);
    const contracts = contractsOn(context, 'chainName', chain.chainId);
    if (readAddress(source, 'forwarderAddress') !== getAddress(contracts.mayanForwarder)) {
      throw new RequestFieldError(
        'forwarderAddress',
        'invalid',
        'forwarderAddress is not the Mayan forwarder',
      );
    }
    const fromToken = readAddress(source, 'fromToken');
    const middleToken = readAddress(source, 'middleToken');
    readUint(source, 'amountIn64');
    const weth = context.tokens.weth(chain.chainId);
    if (!isNative(fromToken) || middleToken !== weth)
      throw new RouteUnavailableError([fromToken, middleToken]);
    return Promise.resolve(
      jsonReply(200, {
        swapRouterAddress: getAddress(contracts.mayanSwapRouter),
        swapRouterCalldata: encodeFunctionData({
          abi: MayanSwapRouterArtifact.abi,
          functionName: 'wrap',
          args: [weth],
        }),
      }),
    );
  };
}
