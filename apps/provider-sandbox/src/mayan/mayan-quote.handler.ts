import { formatUnits, getAddress, parseUnits, type Address } from 'viem';
import { randomId } from '../http/random-id';
import { RateLimitedError } from '../http/rate-limited-error';
import { RequestFieldError } from '../http/request-field-error';
import {
  isPresent,
  parseJsonObject,
  queryObject,
  readAddress,
  readInt,
  readOptionalAddress,
  readString,
  readUint,
} from '../http/request-fields';
import { jsonReply, type RouteHandler } from '../http/sandbox-http';
import { type ComputedQuote } from '../pricing/compute-quote';
import { AmountTooLowError, RouteUnavailableError, UnsupportedChainError } from '../pricing/quote-errors';
import { contractsOn, quoteFor, type SandboxContext } from '../sandbox-context';
import { quoteScenarioFor, RATE_LIMIT_RETRY_AFTER_SECONDS } from '../scenarios/quote-scenarios';
import { isNative } from '../tokens/token-directory';
import { AmountTooSmallError } from './amount-too-small-error';
import { mayanChainById, mayanChainByName } from './mayan-chains';
import { mayanQuoteBody } from './mayan-quote-body';
import { SWIFT_DECIMALS, swiftRelayerFees } from './swift-relayer-fees';

const AUTO_SLIPPAGE_BPS = 100;
const ORDER_TTL_SECONDS = 3600n;

/**
 * The `minimumSdkVersion` every answer carries. Mayan publishes none of its values. The sandbox names the oldest
 * swap SDK whose calldata its Swift V2 accepts: v13.0.0 (2026-02-24, swap-sdk 839a69b), the first that wraps and
 * locks native input; older ones build createOrderWithEth, which it refuses. A client that claims an older
 * `sdkVersion` still gets its quote: refusing an outdated answer is the client's part (src/api.ts `fetchQuote`).
 */
export const MINIMUM_SDK_VERSION = [13, 0, 0] as const;

/**
 * `POST /quote` (JSON body) or `GET /quote` (query): one Swift V2 quote whose `swiftMayanContract` is the origin
 * chain's sandbox Swift V2. No transaction is returned; clients build the forwarder call. It reads what the SDK
 * sends: `sdkVersion` (`major_minor_patch`) and `forwarderAddress`, which must be the sandbox forwarder, since the
 * wrap-and-lock route it names (`/get-swap/evm`) pays into it.
 */
export function mayanQuoteHandler(context: SandboxContext): RouteHandler {
  return (request) => {
    const source = request.method === 'POST' ? parseJsonObject(request.rawBody) : queryObject(request.query);
    const from = readChain(context, source, 'fromChain');
    const to = readChain(context, source, 'toChain');
    const fromToken = readAddress(source, 'fromToken');
    const toToken = readAddress(source, 'toToken');
    const destinationAddress = readOptionalAddress(source, 'destinationAddress');
    readSdkVersion(source);
    const contracts = contractsOn(context, 'fromChain', from.chainId);
    const forwarder = readOptionalAddress(source, 'forwarderAddress');
    if (forwarder !== undefined && forwarder !== getAddress(contracts.mayanForwarder)) {
      throw new RequestFieldError(
        'forwarderAddress',
        'invalid',
        'forwarderAddress is not the Mayan forwarder',
      );
    }
    // The sandbox only runs Swift; a client that turns it off asks for a route that does not exist here.
    if (
      source.swift === false ||
      source.swift === 'false' ||
      context.faults.isRouteUnavailable('mayan', [fromToken, toToken])
    ) {
      throw new RouteUnavailableError([fromToken, toToken]);
    }
    const referrerBps = isPresent(source.referrerBps) ? readInt(source, 'referrerBps') : 0;
    const amountIn = readAmountIn(context, source, from.chainId, fromToken);
    if (quoteScenarioFor('mayan', amountIn) === 'rate-limited') {
      throw new RateLimitedError(RATE_LIMIT_RETRY_AFTER_SECONDS);
    }
    const slippage = source.slippageBps;
    const quote = swiftQuote(context, {
      provider: 'mayan',
      originChainId: from.chainId,
      destinationChainId: to.chainId,
      inputToken: fromToken,
      outputToken: toToken,
      amountIn,
      slippageBps:
        slippage === undefined || slippage === 'auto' ? AUTO_SLIPPAGE_BPS : readInt(source, 'slippageBps'),
      appFeeBps: referrerBps,
    });
    const fees = swiftRelayerFees(quote, context.prices);
    // Swift refuses an order whose cancel and refund fees reach its input (`FeesTooHigh`): no quote for it.
    if (fees.cancel64 + fees.refund64 >= fees.amountIn64)
      throw tooSmall(quote, fees.cancel64 + fees.refund64);
    const quoteId = randomId(16);
    context.quotes.addMayan({ quoteId, destinationAddress, quote, createdAt: context.now(), matched: false });
    const body = mayanQuoteBody({
      quoteId,
      quote,
      from,
      to,
      swiftContract: contracts.mayanSwiftV2,
      deadline: BigInt(Math.floor(context.now() / 1000)) + ORDER_TTL_SECONDS,
      referrerBps,
      fees,
      wrapAndLock: isNative(fromToken) ? context.tokens.weth(from.chainId) : null,
    });
    return Promise.resolve(jsonReply(200, { minimumSdkVersion: MINIMUM_SDK_VERSION, quotes: [body] }));
  };
}

/** The sandbox quote, with a fee-eaten input answered as Mayan's AMOUNT_TOO_SMALL. */
function swiftQuote(context: SandboxContext, request: Parameters<typeof quoteFor>[1]): ComputedQuote {
  try {
    return quoteFor(context, request);
  } catch (error) {
    if (!(error instanceof AmountTooLowError)) throw error;
    const token = context.tokens.find(request.originChainId, request.inputToken)!;
    throw new AmountTooSmallError(Number(formatUnits(error.feesIn + 1n, token.decimals)), token.symbol);
  }
}

/** The least input whose normalised amount exceeds `fees64` (in min(8, decimals) units), in human units. */
function tooSmall(quote: ComputedQuote, fees64: bigint): AmountTooSmallError {
  const { decimals, symbol } = quote.tokenIn;
  const scale = decimals > SWIFT_DECIMALS ? 10n ** BigInt(decimals - SWIFT_DECIMALS) : 1n;
  const minimum = (fees64 + 1n) * scale;
  return new AmountTooSmallError(Number(formatUnits(minimum, decimals)), symbol);
}

function readSdkVersion(source: Record<string, unknown>): void {
  if (!isPresent(source.sdkVersion)) return;
  if (!/^\d+_\d+_\d+$/.test(readString(source, 'sdkVersion'))) {
    throw new RequestFieldError('sdkVersion', 'invalid', 'sdkVersion must be major_minor_patch, e.g. 15_2_0');
  }
}

function readChain(context: SandboxContext, source: Record<string, unknown>, field: string) {
  const name = readString(source, field);
  const chain = mayanChainByName(name);
  if (!chain || !context.clients.has(chain.chainId)) throw new UnsupportedChainError(field, name);
  return { chainId: chain.chainId, ...mayanChainById(chain.chainId)! };
}

/** `amountIn64` (base units); the deprecated human `amountIn` still works, as on the real API. */
function readAmountIn(
  context: SandboxContext,
  source: Record<string, unknown>,
  chainId: number,
  token: Address,
): bigint {
  if (isPresent(source.amountIn64) || !isPresent(source.amountIn)) return readUint(source, 'amountIn64');
  const decimals = context.tokens.find(chainId, token)?.decimals;
  const human = String(source.amountIn);
  if (decimals === undefined || !/^\d+(\.\d+)?$/.test(human)) {
    throw new RequestFieldError('amountIn', 'invalid', 'amountIn must be a decimal amount of a known token');
  }
  return parseUnits(human, decimals);
}
