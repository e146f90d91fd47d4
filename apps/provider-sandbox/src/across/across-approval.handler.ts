import { encodeFunctionData, erc20Abi, maxUint256, zeroAddress } from 'viem';
import { AcrossSpokePoolArtifact } from '../contracts/artifacts';
import { randomId } from '../http/random-id';
import { RequestFieldError } from '../http/request-field-error';
import { queryObject, readAddress, readOptionalAddress, readUint } from '../http/request-fields';
import { jsonReply, type RouteHandler } from '../http/sandbox-http';
import { RouteUnavailableError } from '../pricing/quote-errors';
import { approvalCalls } from '../rpc/approval-calls';
import { contractsOn, quoteFor, readChainId, type SandboxContext } from '../sandbox-context';
import { isNative } from '../tokens/token-directory';
import { acrossQuoteBody, type AcrossSwapTx } from './across-quote-body';
import { readFractionBps } from './read-fraction-bps';

const AUTO_SLIPPAGE_BPS = 50;
const FILL_DEADLINE_SECONDS = 3600;
const QUOTE_TTL_SECONDS = 300;
const DEPOSIT_GAS = 90_000n;

/**
 * `GET /swap/approval`: prices the transfer and returns the approvals the depositor still needs plus a
 * `depositV3` on the sandbox spoke pool (native input names the chain's WETH and sends the amount as value).
 */
export function acrossApprovalHandler(context: SandboxContext): RouteHandler {
  return async (request) => {
    const query = queryObject(request.query);
    const tradeType = request.query.get('tradeType') ?? 'exactInput';
    if (tradeType !== 'exactInput') {
      throw new RequestFieldError('tradeType', 'invalid', 'the sandbox quotes tradeType exactInput only');
    }
    const amount = readUint(query, 'amount');
    const inputToken = readAddress(query, 'inputToken');
    const outputToken = readAddress(query, 'outputToken');
    const originChainId = readChainId(context, query, 'originChainId');
    const destinationChainId = readChainId(context, query, 'destinationChainId');
    const depositor = readAddress(query, 'depositor');
    const recipient = readOptionalAddress(query, 'recipient') ?? depositor;
    const refundAddress = readOptionalAddress(query, 'refundAddress');
    const integratorId = request.query.get('integratorId');
    if (integratorId && !/^0x[0-9a-fA-F]{4}$/.test(integratorId)) {
      throw new RequestFieldError('integratorId', 'invalid', 'integratorId must be a 2-byte hex string');
    }
    const slippage = request.query.get('slippage') ?? 'auto';
    const appFee = request.query.get('appFee');
    if (appFee && !request.query.get('appFeeRecipient')) {
      throw new RequestFieldError('appFeeRecipient', 'missing', 'appFeeRecipient is required with appFee');
    }
    if (appFee) readAddress(query, 'appFeeRecipient');
    if (context.faults.isRouteUnavailable('across', [inputToken, outputToken])) {
      throw new RouteUnavailableError([inputToken, outputToken]);
    }
    const quote = quoteFor(context, {
      provider: 'across',
      originChainId,
      destinationChainId,
      inputToken,
      outputToken,
      amountIn: amount,
      slippageBps: slippage === 'auto' ? AUTO_SLIPPAGE_BPS : readFractionBps(slippage, 'slippage', 5000),
      appFeeBps: appFee ? readFractionBps(appFee, 'appFee', 9999) : 0,
    });

    const client = context.clients.public(originChainId);
    const spokePool = contractsOn(context, 'originChainId', originChainId).acrossSpokePool;
    const native = isNative(inputToken);
    const { allowance, calls } = native
      ? { allowance: maxUint256, calls: [] }
      : await approvalCalls(client, {
          token: inputToken,
          symbol: quote.tokenIn.symbol,
          owner: depositor,
          spender: spokePool,
          amount,
          approveAmount: maxUint256,
        });
    const balance = native
      ? await client.getBalance({ address: depositor })
      : await client.readContract({
          address: inputToken,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [depositor],
        });
    const now = Math.floor(context.now() / 1000);
    const data = encodeFunctionData({
      abi: AcrossSpokePoolArtifact.abi,
      functionName: 'depositV3',
      args: [
        depositor,
        recipient,
        native ? context.tokens.weth(originChainId) : inputToken,
        outputToken,
        amount,
        quote.expectedOut,
        BigInt(destinationChainId),
        zeroAddress,
        now,
        now + FILL_DEADLINE_SECONDS,
        0,
        '0x',
      ],
    });
    const value = native ? amount : 0n;
    const fees = await client.estimateFeesPerGas();
    const swapTx: AcrossSwapTx = {
      simulationSuccess: false,
      chainId: originChainId,
      to: spokePool,
      data,
      value: value.toString(),
      maxFeePerGas: fees.maxFeePerGas.toString(),
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
    };
    // Like Across, simulate only when nothing is missing; `gas` is present only after a successful simulation.
    if (calls.length === 0 && balance >= amount) {
      const gas = await client
        .estimateGas({ account: depositor, to: spokePool, data, value })
        .catch(() => null);
      if (gas !== null) Object.assign(swapTx, { simulationSuccess: true, gas: gas.toString() });
    }
    const id = randomId(12).slice(2);
    context.quotes.addAcross({ id, depositor, recipient, refundAddress, quote, createdAt: context.now() });
    return jsonReply(
      200,
      acrossQuoteBody({
        id,
        quote,
        prices: context.prices,
        spender: spokePool,
        allowance,
        balance,
        approvalTxns: calls.map((call) => ({ chainId: originChainId, ...call })),
        swapTx,
        originGas: {
          token: context.tokens.bySymbol(originChainId, 'ETH')!,
          amount: DEPOSIT_GAS * fees.maxFeePerGas,
        },
        quoteExpiryTimestamp: now + QUOTE_TTL_SECONDS,
      }),
    );
  };
}
