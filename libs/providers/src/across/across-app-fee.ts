import { type Address, decodeAbiParameters, type Hex, isHex } from 'viem';
import { decodeTransfer } from '../evm/decode-approve';
import { sameAddress } from '../evm/same-address';

/**
 * The MulticallHandler instructions a Swap API deposit carries as its `message`:
 * `abi.encode((Call[] calls, address fallbackRecipient))`, `Call = (address target, bytes callData, uint256 value)`
 * (across-protocol/frontend api/_multicall-handler.ts buildMulticallHandlerMessage).
 */
const INSTRUCTIONS = [
  {
    type: 'tuple',
    components: [
      {
        name: 'calls',
        type: 'tuple[]',
        components: [
          { name: 'target', type: 'address' },
          { name: 'callData', type: 'bytes' },
          { name: 'value', type: 'uint256' },
        ],
      },
      { name: 'fallbackRecipient', type: 'address' },
    ],
  },
] as const;

/**
 * What a deposit's message pays to the app-fee recipient out of the bridged `outputAmount`, in `outputToken` base
 * units: 0n for a deposit without a message (`0x`: no MulticallHandler, the recipient got `outputAmount`), null
 * when the message is not one we can read (or the output token is unknown).
 *
 * Only for a deposit whose bridged token is the final token (no destination swap): the Swap API then builds the
 * handler's calls as [unwrap for native output], the app-fee calls, drains to the recipient, event-emitter calls
 * (frontend api/_dexes/utils.ts buildExactInputBridgeTokenMessage / buildMinOutputBridgeTokenMessage). The app-fee
 * calls are the only direct payments (calculateAppFee): an ERC-20 `transfer(appFeeRecipient, feeAmount)` on the
 * output token, or for native output a call with empty calldata and `value: feeAmount`. The recipient is paid by
 * the handler's own drain calls, never by such a transfer, so every transfer of the output token and every plain
 * value call in the message is fee.
 */
export function acrossAppFeeFromMessage(message: unknown, outputToken: Address | null): bigint | null {
  if (typeof message !== 'string' || !isHex(message)) return null;
  if (message === '0x') return 0n;
  if (outputToken === null) return null;
  let calls: readonly { target: Address; callData: Hex; value: bigint }[];
  try {
    [{ calls }] = decodeAbiParameters(INSTRUCTIONS, message);
  } catch {
    return null;
  }
  let fee = 0n;
  for (const call of calls) {
    if (call.callData === '0x') fee += call.value;
    else if (sameAddress(call.target, outputToken)) {
      const amount = transferAmount(call.callData);
      if (amount !== null) fee += amount;
    }
  }
  return fee;
}

function transferAmount(callData: Hex): bigint | null {
  return decodeTransfer(callData)?.amount ?? null;
}
