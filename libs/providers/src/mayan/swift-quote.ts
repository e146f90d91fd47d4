import { type Address } from 'viem';
import {
  address,
  baseUnits,
  baseUnitsOrNull,
  isRecord,
  list,
  optionalText,
  record,
  seconds,
  smallInt,
  usd,
  type JsonRecord,
} from '../response/json-fields';
import { MalformedResponseError } from '../response/malformed-response.error';
import { type MayanChain } from './mayan-chains';
import { SWIFT_MAX_DECIMALS, swiftFractionalAmount } from './swift-fractional-amount';

const UINT64_MAX = 2n ** 64n - 1n;
/** swap-sdk src/utils.ts `getGasDecimal`: 18 for every EVM chain; the gas drop is normalised like any amount. */
const EVM_GAS_DECIMALS = 18;

/**
 * One Swift quote, read the way swap-sdk v15.2.0 src/evm/evmSwift.ts (`getEvmSwiftParams`,
 * `getSwiftFromEvmTxPayload`) reads it to build the order; every throw of that code is a MalformedResponseError
 * here. `orderMinAmountOut` and `gasDrop` are already in Swift's min(8, decimals) units.
 */
export interface SwiftQuote {
  quoteId: string | null;
  memoHex: string | null;
  swiftVersion: 'V1' | 'V2';
  fromChain: MayanChain;
  toChain: MayanChain;
  fromToken: Address;
  toToken: Address;
  toDecimals: number;
  expectedOutputRaw: bigint;
  minReceivedRaw: bigint;
  orderMinAmountOut: bigint;
  gasDrop: bigint;
  effectiveAmountIn: bigint;
  slippageBps: number | null;
  deadline: bigint;
  cancelFee: bigint;
  refundFee: bigint;
  auctionMode: number;
  /** `quote.referrerBps || 0`, as the SDK writes it into the order. */
  referrerBps: number;
  swiftContract: Address;
  swiftInputContract: Address;
  swiftInputDecimals: number | null;
  /** Since v13.0.0 (2026-02-24): native input is wrapped and locked as WETH by Swift V2. */
  wrapAndLock: boolean;
  /** Human units of the input contract; only a source swap (wrap-and-lock included) needs it. */
  minMiddleAmount: unknown;
  relayerFeeUsd: number | null;
  etaSeconds: number | null;
}

/** The Swift quote with the highest expected output, or null when the answer offers none. */
export function bestSwiftQuote(answer: JsonRecord): JsonRecord | null {
  let best: { quote: JsonRecord; out: bigint } | null = null;
  for (const quote of list(answer.quotes, 'quotes')) {
    if (!isRecord(quote) || quote.type !== 'SWIFT' || quote.gasless === true) continue;
    const out = baseUnitsOrNull(quote.expectedAmountOutBaseUnits);
    if (out !== null && (best === null || out > best.out)) best = { quote, out };
  }
  return best?.quote ?? null;
}

export function readSwiftQuote(quote: JsonRecord, chains: { from: MayanChain; to: MayanChain }): SwiftQuote {
  // evmSwift.ts: "Signer chain id ... and quote from chain are not same!" / "Destination chain ID mismatch".
  if (quote.fromChain !== chains.from.name || quote.toChain !== chains.to.name)
    throw new MalformedResponseError(
      `the quote is for ${String(quote.fromChain)} → ${String(quote.toChain)}`,
    );
  const fromToken = record(quote.fromToken, 'fromToken');
  const toToken = record(quote.toToken, 'toToken');
  if (toToken.wChainId !== chains.to.wormholeId)
    throw new MalformedResponseError(`toToken.wChainId is not ${chains.to.wormholeId}`);
  const toDecimals = smallInt(toToken.decimals, 'toToken.decimals', 255, -1);
  if (toDecimals < 0) throw new MalformedResponseError('toToken.decimals is missing');
  const swiftVersion = quote.swiftVersion === 'V2' ? 'V2' : 'V1';
  const wrapAndLock = quote.swiftWrapAndLock === true;
  if (wrapAndLock && swiftVersion !== 'V2')
    throw new MalformedResponseError('Invalid wrap & lock (a V1 quote)');
  // "Swift order requires timeout" / "... refund and cancel fees" / "... auction mode": `!value` in the SDK.
  const deadline = uint64(baseUnits(quote.deadline64, 'deadline64'), 'deadline64');
  if (deadline === 0n) throw new MalformedResponseError('Swift order requires timeout (deadline64)');
  if (!quote.refundRelayerFee64 || !quote.cancelRelayerFee64)
    throw new MalformedResponseError('Swift order requires refund and cancel fees');
  const auctionMode = smallInt(quote.swiftAuctionMode, 'swiftAuctionMode', 255, 0);
  if (auctionMode === 0) throw new MalformedResponseError('Swift order requires auction mode');
  return {
    quoteId: optionalText(quote.quoteId),
    memoHex: optionalText(quote.memoHex),
    swiftVersion,
    fromChain: chains.from,
    toChain: chains.to,
    fromToken: address(fromToken.contract, 'fromToken.contract'),
    toToken: address(toToken.contract, 'toToken.contract'),
    toDecimals,
    expectedOutputRaw: baseUnits(quote.expectedAmountOutBaseUnits, 'expectedAmountOutBaseUnits'),
    minReceivedRaw: baseUnits(quote.minReceivedBaseUnits, 'minReceivedBaseUnits'),
    orderMinAmountOut: uint64(
      swiftFractionalAmount(quote.minAmountOut, Math.min(toDecimals, SWIFT_MAX_DECIMALS), 'minAmountOut'),
      'minAmountOut',
    ),
    gasDrop: uint64(
      swiftFractionalAmount(quote.gasDrop, Math.min(EVM_GAS_DECIMALS, SWIFT_MAX_DECIMALS), 'gasDrop'),
      'gasDrop',
    ),
    effectiveAmountIn: baseUnits(quote.effectiveAmountIn64, 'effectiveAmountIn64'),
    slippageBps: typeof quote.slippageBps === 'number' ? quote.slippageBps : null,
    deadline,
    cancelFee: uint64(baseUnits(quote.cancelRelayerFee64, 'cancelRelayerFee64'), 'cancelRelayerFee64'),
    refundFee: uint64(baseUnits(quote.refundRelayerFee64, 'refundRelayerFee64'), 'refundRelayerFee64'),
    auctionMode,
    referrerBps: smallInt(quote.referrerBps, 'referrerBps', 255, 0),
    swiftContract: address(quote.swiftMayanContract, 'swiftMayanContract'),
    swiftInputContract: address(quote.swiftInputContract, 'swiftInputContract'),
    swiftInputDecimals: typeof quote.swiftInputDecimals === 'number' ? quote.swiftInputDecimals : null,
    wrapAndLock,
    minMiddleAmount: quote.minMiddleAmount,
    relayerFeeUsd: usd(quote.clientRelayerFeeSuccess),
    etaSeconds: seconds(quote.etaSeconds),
  };
}

function uint64(value: bigint, path: string): bigint {
  if (value > UINT64_MAX) throw new MalformedResponseError(`${path} does not fit in uint64`);
  return value;
}
