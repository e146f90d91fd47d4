import { type Address, getAddress, isAddress } from 'viem';
import { baseUnitsOrNull, isRecord, optionalRecord } from '../response/json-fields';
import { acrossAppFeeFromMessage } from './across-app-fee';

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
 * - Normally `outputAmount` is the bridge leg. With a destination swap only the swap's minimum
 *   (`swapOutputTokenAmount`) is known, so the amount is unknown.
 * - Without one, the recipient got `outputAmount` less the app fee: with an app fee the deposit pays the
 *   MulticallHandler, which pays the fee out of `outputAmount` and drains the rest to the recipient (frontend
 *   api/_dexes/utils.ts shouldBypassMultiCallHandler, buildExactInputBridgeTokenMessage). The fee is read from
 *   the deposit's `message` (across-app-fee.ts); a message we cannot read leaves the amount unknown.
 * - `actionsFailed` (status `actionsSucceeded: false`): the MulticallHandler received `outputAmount` of
 *   `outputToken`, its calls (the swap and any app-fee transfer) reverted together, and it drained everything it
 *   held to the fallback recipient, `refundAddress ?? depositor` for an EVM origin (across-protocol/contracts
 *   contracts/handlers/MulticallHandler.sol handleV3AcrossMessage: CallsFailed then _drainRemainingTokens;
 *   across-protocol/frontend api/_dexes/utils.ts getAcrossFallbackRecipient, which is only used without
 *   `refundOnOrigin`). So the amount is `outputAmount`, in `outputToken`, not in the target token.
 */
export function acrossDepositOutput(body: unknown, options: { actionsFailed: boolean }): AcrossDepositOutput {
  const deposit = isRecord(body) ? optionalRecord(body.deposit) : undefined;
  if (deposit === undefined) return { actualOutputRaw: null, outputToken: null };
  const outputToken = evmAddressOrNull(deposit.outputToken);
  const swapFollowed = deposit.swapOutputTokenAmount !== undefined && deposit.swapOutputTokenAmount !== null;
  const outputAmount = baseUnitsOrNull(deposit.outputAmount);
  // The handler's calls, fee transfer included, reverted together: it drained all of outputAmount.
  if (options.actionsFailed) return { actualOutputRaw: outputAmount, outputToken };
  if (swapFollowed || outputAmount === null) return { actualOutputRaw: null, outputToken };
  const appFee = acrossAppFeeFromMessage(deposit.message, outputToken);
  const delivered = appFee === null || appFee > outputAmount ? null : outputAmount - appFee;
  return { actualOutputRaw: delivered, outputToken };
}

/** A 20-byte address, or a 32-byte left-padded one (FundsDeposited carries bytes32 addresses); else null. */
function evmAddressOrNull(value: unknown): Address | null {
  if (typeof value !== 'string') return null;
  if (isAddress(value, { strict: false })) return getAddress(value);
  const padded = /^0x0{24}([0-9a-fA-F]{40})$/.exec(value);
  return padded === null ? null : getAddress(`0x${padded[1]}`);
}
