import { encodeFunctionData, erc20Abi, zeroAddress, type Address } from 'viem';
import { type DraftCall } from './draft-call';
import { sameAddress } from './same-address';

/**
 * The plain transfer that delivers a no-op slice (already the target token on the target chain) to a recipient
 * other than the wallet: `transfer(recipient, amount)` on the token, or the amount as value for the native asset.
 */
export function noopTransfer(noop: { token: string; rawAmount: string }, recipient: Address): DraftCall {
  const amount = BigInt(noop.rawAmount);
  if (sameAddress(noop.token, zeroAddress)) {
    return { to: recipient, data: '0x', value: amount.toString(), gas: null, kind: 'other' };
  }
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, amount] });
  return { to: noop.token, data, value: '0', gas: null, kind: 'other' };
}
