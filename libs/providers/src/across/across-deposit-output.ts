import { type Address, getAddress, isAddress } from 'viem';
import { baseUnitsOrNull, isRecord, optionalRecord } from '../response/json-fields';

export interface AcrossDepositOutput {
  /** What the fill delivered, when `/deposit` makes it known; null otherwise. */
  actualOutputRaw: bigint | null;
  /** `deposit.outputToken`: the token the bridge leg delivered on the destination chain, when readable. */
  outputToken: Address | null;
}

/**
 * The received amount and bridged token from a `/deposit` answer (across-protocol/indexer
 * packages/indexer-api/src/utils/fields.ts: `outputToken`, `outputAmount`, `swapOutputToken`,
 * `swapOutputTokenAmount`).
 *
 * - Normally `outputAmount` is the bridge leg, which is what the recipient got unless a destination swap followed;
 *   then only the swap's minimum (`swapOutputTokenAmount`) is known, so the amount is unknown.
 * - `actionsFailed` (status `actionsSucceeded: false`): the MulticallHandler received `outputAmount` of
 *   `outputToken`, its calls (the swap and any app-fee transfer) reverted together, and it drained everything it
 *   held to the fallback recipient, `refundAddress ?? recipient` (across-protocol/contracts
 *   contracts/handlers/MulticallHandler.sol handleV3AcrossMessage: CallsFailed then _drainRemainingTokens;
 *   across-protocol/frontend api/_dexes/utils.ts getAcrossFallbackRecipient). So the amount is `outputAmount`,
 *   in `outputToken`, not in the target token.
 */
export function acrossDepositOutput(body: unknown, options: { actionsFailed: boolean }): AcrossDepositOutput {
  const deposit = isRecord(body) ? optionalRecord(body.deposit) : undefined;
  if (deposit === undefined) return { actualOutputRaw: null, outputToken: null };
  const outputToken = evmAddressOrNull(deposit.outputToken);
  const swapFollowed = deposit.swapOutputTokenAmount !== undefined && deposit.swapOutputTokenAmount !== null;
  if (swapFollowed && !options.actionsFailed) return { actualOutputRaw: null, outputToken };
  return { actualOutputRaw: baseUnitsOrNull(deposit.outputAmount), outputToken };
}

/** A 20-byte address, or a 32-byte left-padded one (FundsDeposited carries bytes32 addresses); else null. */
function evmAddressOrNull(value: unknown): Address | null {
  if (typeof value !== 'string') return null;
  if (isAddress(value, { strict: false })) return getAddress(value);
  const padded = /^0x0{24}([0-9a-fA-F]{40})$/.exec(value);
  return padded === null ? null : getAddress(`0x${padded[1]}`);
}
