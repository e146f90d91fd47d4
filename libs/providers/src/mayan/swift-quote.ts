import { type Address } from 'viem';
import {
  address,
  baseUnits,
  baseUnitsOrNull,
  isRecord,
  list,
  optionalAddress,
  optionalBaseUnits,
  optionalText,
  record,
  seconds,
  smallInt,
  usd,
  type JsonRecord,
} from '../response/json-fields';
import { MalformedResponseError } from '../response/malformed-response.error';

const UINT64_MAX = 2n ** 64n - 1n;

/** The fields of one Swift quote we build the order from; amounts from the `*BaseUnits` / `*64` fields only. */
export interface SwiftQuote {
  quoteId: string | null;
  swiftVersion: 'V1' | 'V2';
  expectedOutputRaw: bigint;
  minReceivedRaw: bigint;
  effectiveAmountIn: bigint;
  deadline: bigint;
  cancelFee: bigint;
  refundFee: bigint;
  auctionMode: number;
  referrerBps: number | null;
  bridgeFee: bigint;
  swiftContract: Address;
  swiftInputContract: Address | null;
  relayerFeeUsd: number | null;
  etaSeconds: number | null;
}

/** The Swift quote with the highest expected output, or null when the answer offers none. */
export function bestSwiftQuote(body: unknown): JsonRecord | null {
  const answer = record(body, 'body');
  let best: { quote: JsonRecord; out: bigint } | null = null;
  for (const quote of list(answer.quotes, 'quotes')) {
    if (!isRecord(quote) || quote.type !== 'SWIFT' || quote.gasless === true) continue;
    const out = baseUnitsOrNull(quote.expectedAmountOutBaseUnits);
    if (out !== null && (best === null || out > best.out)) best = { quote, out };
  }
  return best?.quote ?? null;
}

export function readSwiftQuote(quote: JsonRecord): SwiftQuote {
  const deadline = uint64(baseUnits(quote.deadline64, 'deadline64'), 'deadline64');
  if (deadline === 0n) throw new MalformedResponseError('deadline64 is zero; a Swift order needs one');
  return {
    quoteId: optionalText(quote.quoteId),
    swiftVersion: quote.swiftVersion === 'V2' ? 'V2' : 'V1',
    expectedOutputRaw: baseUnits(quote.expectedAmountOutBaseUnits, 'expectedAmountOutBaseUnits'),
    minReceivedRaw: baseUnits(quote.minReceivedBaseUnits, 'minReceivedBaseUnits'),
    effectiveAmountIn: baseUnits(quote.effectiveAmountIn64, 'effectiveAmountIn64'),
    deadline,
    cancelFee: uint64(
      optionalBaseUnits(quote.cancelRelayerFee64, 'cancelRelayerFee64') ?? 0n,
      'cancelRelayerFee64',
    ),
    refundFee: uint64(
      optionalBaseUnits(quote.refundRelayerFee64, 'refundRelayerFee64') ?? 0n,
      'refundRelayerFee64',
    ),
    auctionMode: smallInt(quote.swiftAuctionMode, 'swiftAuctionMode', 255, 0),
    referrerBps: quote.referrerBps === undefined ? null : smallInt(quote.referrerBps, 'referrerBps', 255, 0),
    bridgeFee: optionalBaseUnits(quote.bridgeFee64, 'bridgeFee64') ?? 0n,
    swiftContract: address(quote.swiftMayanContract, 'swiftMayanContract'),
    swiftInputContract: optionalAddress(quote.swiftInputContract, 'swiftInputContract'),
    relayerFeeUsd: usd(quote.clientRelayerFeeSuccess),
    etaSeconds: seconds(quote.etaSeconds),
  };
}

function uint64(value: bigint, path: string): bigint {
  if (value > UINT64_MAX) throw new MalformedResponseError(`${path} does not fit in uint64`);
  return value;
}
