import { type Address, zeroAddress } from 'viem';
import { decodeApprove } from '../evm/decode-approve';
import { sameAddress } from '../evm/same-address';
import { type QuoteSlice } from '../provider-adapter.port';
import { type ProviderCall, type ProviderQuote } from '../provider-quote';
import { type ChainContracts, type ContractAllowlist } from './provider-contracts';

/** Which check refused the answer (a metric label). */
export type VouchRule = 'chain' | 'target' | 'approval' | 'spender' | 'value' | 'minimum';

export interface VouchRefusal {
  rule: VouchRule;
  reason: string;
}

/**
 * Across splits a slippage between its source and destination swaps and rounds each half to 0.01 %
 * (across-protocol/frontend api/_slippage.ts `getSlippage`), which can cost up to 1 bps more than asked.
 */
const ROUNDING_SLACK_BPS = 1n;
/** Swift orders carry amounts with at most 8 decimals (swap-sdk src/utils.ts; mayan/swift-order.ts). */
const SWIFT_DECIMALS = 8;

/**
 * Whether we can hand a provider's quote to a wallet: both chains of the slice listed for the provider, every call
 * on the source chain, every non-approval call to
 * one of the provider's contracts, every approval of the source token to one of its spenders, `value` 0 for a
 * token and exactly the amount for the native asset, and a minimum output within the requested slippage of the
 * expected one. Null when it passes; otherwise the first rule it breaks.
 */
export function vouchQuote(
  quote: ProviderQuote,
  slice: QuoteSlice,
  allowlist: ContractAllowlist,
): VouchRefusal | null {
  const chainId = slice.source.chainId;
  const contracts = allowlist.get(chainId);
  if (contracts === undefined)
    return { rule: 'chain', reason: `no ${quote.provider} contract is allowed on chain ${chainId}` };
  // The list names the chains the provider serves here, at both ends of a leg: the deployment reads those chains
  // (NODE_ENV=production refuses a CHAINS_FILE without them), so a fill is read, never taken on the provider's word.
  if (!allowlist.has(slice.target.chainId))
    return {
      rule: 'chain',
      reason: `no ${quote.provider} contract is allowed on chain ${slice.target.chainId}, the target chain`,
    };
  for (const [index, call] of quote.calls.entries()) {
    const refused = vouchCall(call, index, slice, contracts);
    if (refused !== null) return refused;
  }
  return vouchValue(quote.calls, slice) ?? vouchMinimum(quote, slice);
}

function vouchCall(
  call: ProviderCall,
  index: number,
  slice: QuoteSlice,
  contracts: ChainContracts,
): VouchRefusal | null {
  const chainId = slice.source.chainId;
  if (call.chainId !== chainId)
    return {
      rule: 'chain',
      reason: `call ${index} is on chain ${call.chainId}, not the source chain ${chainId}`,
    };
  if (call.kind !== 'approve')
    return listed(contracts.targets, call.to)
      ? null
      : {
          rule: 'target',
          reason: `call ${index} goes to ${call.to}, not an allowed contract on chain ${chainId}`,
        };
  const token = slice.source.token;
  const decoded = decodeApprove(call.data);
  const { approval } = call;
  if (isNative(token))
    return { rule: 'approval', reason: `call ${index} approves a token, but the source is the native asset` };
  if (
    approval === undefined ||
    decoded === null ||
    !sameAddress(call.to, token) ||
    !sameAddress(approval.token, token) ||
    !sameAddress(decoded.spender, approval.spender) ||
    decoded.amount !== approval.amount
  )
    return { rule: 'approval', reason: `call ${index} is not an approval of the source token ${token}` };
  return listed(contracts.spenders, approval.spender)
    ? null
    : {
        rule: 'spender',
        reason: `call ${index} approves ${approval.spender}, not an allowed spender on chain ${chainId}`,
      };
}

/** A token moves by allowance, so no call carries value; the native asset moves as value, exactly the amount. */
function vouchValue(calls: readonly ProviderCall[], slice: QuoteSlice): VouchRefusal | null {
  const total = calls.reduce((sum, call) => sum + call.value, 0n);
  if (isNative(slice.source.token))
    return total === slice.source.amount
      ? null
      : {
          rule: 'value',
          reason: `the calls send ${total} of the native asset, not the amount ${slice.source.amount}`,
        };
  const paying = calls.findIndex((call) => call.value !== 0n);
  return paying < 0
    ? null
    : {
        rule: 'value',
        reason: `call ${paying} sends ${calls[paying].value} of the native asset with a token source`,
      };
}

/**
 * expected − slippage·(expected + app fee) ≤ minimum ≤ expected. The app fee term: providers take the fee from
 * the output after applying the slippage, so a minimum net of the fee sits that much lower (Across charges it on
 * the destination swap's minimum: frontend api/_dexes/cross-swap-service.ts `calculateAppFee`).
 */
function vouchMinimum(quote: ProviderQuote, slice: QuoteSlice): VouchRefusal | null {
  const expected = quote.expectedOutputRaw;
  const minimum = quote.minimumOutputRaw;
  if (minimum > expected)
    return {
      rule: 'minimum',
      reason: `the minimum output ${minimum} is above the expected output ${expected}`,
    };
  const netShare = BigInt(Math.max(1, 10_000 - slice.appFeeBps));
  const lossBps = BigInt(slice.slippageBps) * 10_000n + ROUNDING_SLACK_BPS * netShare;
  const allowedLoss = ceilDiv(expected * lossBps, 10_000n * netShare) + unitSlack(slice.target.decimals);
  const floor = expected - allowedLoss;
  return minimum >= floor
    ? null
    : {
        rule: 'minimum',
        reason: `the minimum output ${minimum} is below ${floor}, the expected output ${expected} less ${slice.slippageBps} bps slippage`,
      };
}

/** Base units a minimum may lose to rounding: one, or what flooring to Swift's 8 decimals takes away. */
function unitSlack(decimals: number): bigint {
  return decimals > SWIFT_DECIMALS ? 10n ** BigInt(decimals - SWIFT_DECIMALS) : 1n;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

function listed(allowed: readonly Address[], address: Address): boolean {
  return allowed.some((entry) => sameAddress(entry, address));
}

function isNative(token: Address): boolean {
  return sameAddress(token, zeroAddress);
}
